import { z } from 'zod';

export const customerProfileSchema = z
  .object({
    id: z.string().describe('`cus_…`'),
    email: z.string().describe('The verified email: sign-in and order history use it'),
    emailVerified: z
      .boolean()
      .describe('Whether `email` has been verified (true for every signed-in customer)'),
    pendingEmail: z
      .string()
      .nullable()
      .describe('A new email asked for and not yet verified; `email` changes only once it is'),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'CustomerProfile' });
export type CustomerProfileRead = z.infer<typeof customerProfileSchema>;

export const updateCustomerProfileInputSchema = z
  .strictObject({
    name: z.string().trim().max(200).nullable().optional().describe('At most 200; `null` or empty clears'),
    phone: z.string().trim().max(50).nullable().optional().describe('At most 50; `null` or empty clears'),
    email: z
      .email()
      .max(320)
      .optional()
      .describe(
        'A new email: not applied now. A CUSTOMER_AUTH email with a link and a code goes to the new address, and `email` changes once it is verified through `POST /public/customer/auth/verify`',
      ),
  })
  .meta({ id: 'CustomerProfileUpdate' });
export type UpdateCustomerProfileInput = z.output<typeof updateCustomerProfileInputSchema>;
