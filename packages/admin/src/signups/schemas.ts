import { cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';

const optionalText = (max: number) => z.string().trim().min(1).max(max).optional();

/**
 * `POST /public/signup`: a person asking for a store. Only `email` is
 * required; unknown keys are rejected.
 */
export const captureSignupInputSchema = z
  .strictObject({
    email: z
      .email()
      .max(320)
      .describe('Where the operator answers; matched case-insensitively, stored lowercased'),
    name: optionalText(200).describe('The person asking, at most 200 characters'),
    companyName: optionalText(200).describe('Their business, at most 200 characters'),
    website: z
      .url({ protocol: /^https?$/, hostname: z.regexes.domain })
      .max(2048)
      .optional()
      .describe('Their current website: an absolute http or https URL, at most 2048 characters'),
    message: optionalText(2000).describe('Anything they want to tell, at most 2000 characters'),
  })
  .meta({ id: 'SignupRequest' });
export type CaptureSignupInput = z.output<typeof captureSignupInputSchema>;

/** The one answer to every accepted signup: nothing that tells a new email from a known one. */
export const signupAcknowledgementSchema = z
  .object({ ok: z.literal(true) })
  .meta({ id: 'SignupAcknowledgement' });
export type SignupAcknowledgement = z.infer<typeof signupAcknowledgementSchema>;

export const SIGNUP_ACKNOWLEDGEMENT: SignupAcknowledgement = { ok: true };

export const signupListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last signup of the previous page (`nextCursor`)'),
});
export type SignupListQuery = z.output<typeof signupListQuerySchema>;

export const signupSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    companyName: z.string().nullable(),
    website: z.string().nullable(),
    message: z.string().nullable(),
    sourceOrganization: z
      .object({ id: z.string(), slug: z.string() })
      .nullable()
      .describe('The storefront (tenant) whose signup form sent the latest request'),
    createdAt: z.iso.datetime().describe('The first request for this email'),
    updatedAt: z.iso.datetime().describe('The latest request for this email'),
  })
  .meta({ id: 'Signup' });
export type SignupRead = z.infer<typeof signupSchema>;
