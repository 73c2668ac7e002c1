/**
 * The router's own input schemas, for validating forms before they are sent: from the packages'
 * browser-safe `./schemas` subpaths only (never an entry point, which holds database code);
 * vite.config.ts fails the build if server code reaches the bundle.
 */
export {
  createAddressInputSchema,
  requestSignInInputSchema,
  updateAddressInputSchema,
  updateCustomerProfileInputSchema,
  verifySignInInputSchema,
} from '@commerce/customers/schemas';
export { createReturnByReferenceInputSchema, RETURN_REASONS } from '@commerce/orders/schemas';

import type { z } from 'zod';
import { type IssueLike, plainMessage } from './messages.ts';

/**
 * A zod error as a form's `validationErrors`: the first issue of each field, keyed by its dotted
 * path, in plain words (never zod's own text).
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    errors[key || 'form'] ??= plainMessage(key, issue as unknown as IssueLike);
  }
  return errors;
}
