import type { ValidationIssue } from '@commerce/core';
import { z } from 'zod';
import { parseCopy } from './liquid.ts';
import type { EmailTemplateCopy, EmailTemplateDefinition } from './registry.ts';

/** The writable slots, in the order the API lists them. */
export const EMAIL_TEMPLATE_SLOTS = [
  'subject',
  'heading',
  'bodyText',
  'ctaLabel',
  'fromName',
  'replyTo',
] as const;
export type EmailTemplateSlot = (typeof EMAIL_TEMPLATE_SLOTS)[number];

/** The slots that may hold `{{ variable }}` outputs; the sender name and reply-to are plain values. */
export const COPY_SLOTS = [
  'subject',
  'heading',
  'bodyText',
  'ctaLabel',
] as const satisfies readonly (keyof EmailTemplateCopy)[];
export type CopySlot = (typeof COPY_SLOTS)[number];

export interface EmailTemplateSlots extends EmailTemplateCopy {
  fromName: string;
  replyTo: string | null;
}

export const SLOT_MAX_LENGTH = {
  subject: 200,
  heading: 200,
  bodyText: 5000,
  ctaLabel: 60,
  fromName: 100,
  replyTo: 320,
} as const satisfies Record<EmailTemplateSlot, number>;

const LINE_BREAK = /[\r\n\u2028\u2029]/;

const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !LINE_BREAK.test(value), 'must not contain line breaks');

/**
 * Each slot's value as a merchant may write it. The sender name becomes part
 * of a `From` header: no line breaks, no `<`, `>`, `"` or `\`, and no merge
 * variables (it is the same for every recipient).
 */
export const emailTemplateSlotSchemas = {
  subject: singleLine(SLOT_MAX_LENGTH.subject),
  heading: singleLine(SLOT_MAX_LENGTH.heading),
  bodyText: z.string().trim().min(1).max(SLOT_MAX_LENGTH.bodyText),
  ctaLabel: singleLine(SLOT_MAX_LENGTH.ctaLabel),
  fromName: singleLine(SLOT_MAX_LENGTH.fromName)
    .refine((value) => !/[<>"\\]/.test(value), 'must not contain <, >, " or \\')
    .refine((value) => !/\{\{|\{%/.test(value), 'cannot use merge variables'),
  replyTo: z.email().max(SLOT_MAX_LENGTH.replyTo),
} as const;

/**
 * Slots as an update or a draft sends them: each optional, `null` meaning
 * "the default". Unknown keys are refused.
 */
export const emailTemplateSlotsPatchSchema = z.strictObject({
  subject: emailTemplateSlotSchemas.subject.nullable().optional(),
  heading: emailTemplateSlotSchemas.heading.nullable().optional(),
  bodyText: emailTemplateSlotSchemas.bodyText.nullable().optional(),
  ctaLabel: emailTemplateSlotSchemas.ctaLabel.nullable().optional(),
  fromName: emailTemplateSlotSchemas.fromName.nullable().optional(),
  replyTo: emailTemplateSlotSchemas.replyTo.nullable().optional(),
});
export type EmailTemplateSlotsPatch = z.infer<typeof emailTemplateSlotsPatchSchema>;

/**
 * Problems of the copy slots present in `copy`: syntax errors, tags, filters,
 * expressions other than a plain variable, and variables the type does not
 * declare (one issue per unknown variable per slot, naming it).
 */
export function findCopyIssues(
  definition: EmailTemplateDefinition,
  copy: Partial<Record<CopySlot, string | null | undefined>>,
): ValidationIssue[] {
  const declared = new Set(definition.variables.map((entry) => entry.name));
  const issues: ValidationIssue[] = [];
  for (const slot of COPY_SLOTS) {
    const source = copy[slot];
    if (typeof source !== 'string') continue;
    const parsed = parseCopy(source);
    for (const problem of parsed.problems) {
      issues.push({ path: slot, message: describeProblem(problem) });
    }
    for (const name of parsed.variables) {
      if (!declared.has(name)) {
        issues.push({
          path: slot,
          message: `unknown merge variable "${name}"; available: ${[...declared].join(', ')}`,
        });
      }
    }
  }
  return issues;
}

function describeProblem(problem: ReturnType<typeof parseCopy>['problems'][number]): string {
  switch (problem.kind) {
    case 'syntax':
      return 'is not valid template text: every {{ must be closed by }}';
    case 'tag':
      return 'tags such as {% … %} are not allowed; use {{ variable }} outputs only';
    case 'filter':
      return 'filters (|) are not allowed; use {{ variable }} outputs only';
    case 'expression':
      return `"{{ ${problem.source} }}" is not a merge variable; use {{ variable }} outputs only`;
  }
}

/**
 * Variables the resolved copy must keep (a sign-in code): each missing one is
 * an issue on `bodyText`, where the default puts it.
 */
export function findMissingRequiredVariables(
  definition: EmailTemplateDefinition,
  copy: EmailTemplateCopy,
): ValidationIssue[] {
  if (definition.requiredVariables.length === 0) return [];
  const used = new Set(COPY_SLOTS.flatMap((slot) => parseCopy(copy[slot]).variables));
  return definition.requiredVariables
    .filter((name) => !used.has(name))
    .map((name) => ({ path: 'bodyText', message: `must keep the merge variable "{{ ${name} }}"` }));
}
