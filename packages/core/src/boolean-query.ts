import { z } from 'zod';

const TRUE_FORMS = new Set(['true', '1', 'yes']);
const FALSE_FORMS = new Set(['false', '0', 'no']);

/**
 * A boolean query parameter as the spec defines it: true/1/yes and
 * false/0/no, case-insensitive; anything else is a validation failure.
 */
export const booleanQuerySchema = z
  .union([z.boolean(), z.string()])
  .transform((value, ctx) => {
    if (typeof value === 'boolean') return value;
    const normalized = value.trim().toLowerCase();
    if (TRUE_FORMS.has(normalized)) return true;
    if (FALSE_FORMS.has(normalized)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be one of true, 1, yes, false, 0, no' });
    return z.NEVER;
  })
  .meta({ type: 'string', enum: ['true', '1', 'yes', 'false', '0', 'no'] });
