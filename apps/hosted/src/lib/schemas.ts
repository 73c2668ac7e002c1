/**
 * The router's own input schemas, for validating forms before they are sent. Only pure zod modules
 * are imported here (never a package's entry point, which holds database code): vite.config.ts
 * fails the build if server code reaches the bundle.
 */
export {
  createAddressInputSchema,
  updateAddressInputSchema,
} from '../../../../packages/customers/src/addresses/schemas.ts';
export { updateCustomerProfileInputSchema } from '../../../../packages/customers/src/profile/schemas.ts';
export {
  requestSignInInputSchema,
  verifySignInInputSchema,
} from '../../../../packages/customers/src/sign-in/schemas.ts';
export {
  createReturnByReferenceInputSchema,
  RETURN_REASONS,
} from '../../../../packages/orders/src/returns/schemas.ts';

import type { z } from 'zod';

/** A zod error as a react-aria `Form`'s `validationErrors`: the first message of each top-level field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}
