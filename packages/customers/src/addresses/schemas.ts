import { countryCodeSchema } from '@commerce/catalog/schemas';
import { cursorSchema, limitSchema } from '@commerce/core/schemas';
import { z } from 'zod';

const optionalText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .describe(`${what}; at most ${max}; \`null\` or empty clears`);

/** Address fields and their length limits. */
const addressFields = {
  name: optionalText(200, 'The recipient'),
  company: optionalText(200, 'Company'),
  line1: z.string().trim().min(1).max(300).describe('1 to 300'),
  line2: optionalText(300, 'Second line'),
  city: z.string().trim().min(1).max(200).describe('1 to 200'),
  state: optionalText(200, 'State, province or region'),
  postalCode: optionalText(32, 'Postal code'),
  // The list checkout and shipping zones use: an unassigned code (`UN`) or a name is refused, never cut short.
  country: countryCodeSchema.describe('ISO 3166-1 alpha-2, e.g. `US` (stored uppercase)'),
  phone: optionalText(50, 'Phone'),
  isDefaultShipping: z
    .boolean()
    .optional()
    .describe('Make this the default shipping address (the previous default stops being one)'),
  isDefaultBilling: z
    .boolean()
    .optional()
    .describe('Make this the default billing address (the previous default stops being one)'),
};

export const createAddressInputSchema = z.strictObject(addressFields).meta({ id: 'CustomerAddressCreate' });
export type CreateAddressInput = z.output<typeof createAddressInputSchema>;

export const updateAddressInputSchema = z
  .strictObject({
    id: z.string().min(1).max(64).describe('`adr_…`'),
    ...addressFields,
    line1: addressFields.line1.optional(),
    city: addressFields.city.optional(),
    country: addressFields.country.optional(),
  })
  .meta({ id: 'CustomerAddressUpdate' });
export type UpdateAddressInput = z.output<typeof updateAddressInputSchema>;

export const addressIdInputSchema = z.object({ id: z.string().min(1).max(64).describe('`adr_…`') });

export const addressListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last address of the previous page (`nextCursor`)'),
});
export type AddressListQuery = z.output<typeof addressListQuerySchema>;

export const customerAddressSchema = z
  .object({
    id: z.string().describe('`adr_…`'),
    name: z.string().nullable(),
    company: z.string().nullable(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string(),
    phone: z.string().nullable(),
    isDefaultShipping: z
      .boolean()
      .describe('At most one address of a customer is the default shipping address'),
    isDefaultBilling: z
      .boolean()
      .describe('At most one address of a customer is the default billing address'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'CustomerAddress' });
export type CustomerAddressRead = z.infer<typeof customerAddressSchema>;
