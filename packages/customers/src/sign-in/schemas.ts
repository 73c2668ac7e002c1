import { z } from 'zod';

/** An email as sign-in keys it: trimmed and lowercased (the columns are citext as well). */
const signInEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email().max(320))
  .describe('The customer’s email');

export const requestSignInInputSchema = z.strictObject({ email: signInEmailSchema }).meta({
  id: 'CustomerSignInRequest',
});
export type RequestSignInInput = z.output<typeof requestSignInInputSchema>;

/** The one answer of both request routes, whatever the email. */
export const signInRequestedSchema = z
  .object({
    accepted: z
      .literal(true)
      .describe('Always true: the same answer whether or not the email belongs to a customer'),
  })
  .meta({ id: 'CustomerSignInRequested' });

/** `{ token }` or `{ email, code }` (one object, as the OpenAPI generator needs; the refinement keeps the two forms apart). */
export const verifySignInInputSchema = z
  .strictObject({
    token: z
      .string()
      .max(200)
      .optional()
      .describe('The `token` of the emailed link (`…/account/verify?token=…`)'),
    email: signInEmailSchema.optional().describe('With `code`: the email the code was sent to'),
    code: z.string().trim().max(20).optional().describe('With `email`: the 6-digit code of the email'),
  })
  .superRefine((body, ctx) => {
    const byToken = body.token !== undefined;
    const byCode = body.email !== undefined || body.code !== undefined;
    if (byToken && byCode)
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'send either token, or email and code' });
    else if (!byToken && (body.email === undefined || body.code === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [body.email === undefined ? 'email' : 'code'],
        message: 'send either token, or email and code',
      });
  })
  .meta({ id: 'CustomerSignInVerify' });
export type VerifySignInInput = { token: string } | { email: string; code: string };

/** The verified body in its one form. */
export function verifyForm(input: z.output<typeof verifySignInInputSchema>): VerifySignInInput {
  return input.token !== undefined ? { token: input.token } : { email: input.email!, code: input.code! };
}

export const customerSessionIssuedSchema = z
  .object({
    sessionToken: z
      .string()
      .optional()
      .describe(
        'The `s1_…` session token, shown only here. Send it as `Authorization: Bearer s1_…` from a server; never keep it in client-side script. Always present on this REST route; absent over the first-party `/trpc` surface (the hosted app), where the session is only the HttpOnly cookie, so page script never sees it',
      ),
    expiresAt: z.iso.datetime().describe('30 days from now, renewed on use when less than 15 days remain'),
    customerId: z.string().describe('`cus_…`'),
  })
  .meta({ id: 'CustomerSessionIssued' });
export type CustomerSessionIssued = z.infer<typeof customerSessionIssuedSchema>;
