import { countryCodeSchema } from '@commerce/catalog/schemas';
import { z } from 'zod';
import { paymentStatusSchema, shippingAddressInputSchema, shippingAddressSchema } from '../orders/schemas.ts';

/** Limits of a checkout cart (docs/checkout.md, "Checkout sessions"). */
export const MAX_CHECKOUT_LINES = 100;
export const MAX_CHECKOUT_LINE_QUANTITY = 999;

export const CHECKOUT_SESSION_STATUSES = [
  'OPEN',
  'BOUND',
  'AWAITING_PAYMENT',
  'PAYMENT_FAILED',
  'COMPLETED',
  'EXPIRED',
  'CANCELLED',
] as const;

const idSchema = (what: string) => z.string().min(1).max(64).describe(what);

export const checkoutLineInputSchema = z.strictObject({
  itemId: idSchema('An ACTIVE, unarchived item of the store (`itm_…`)'),
  variantId: idSchema(
    'A non-archived variant of that item (`var_…`); required when the item has variants, null or absent otherwise',
  )
    .nullable()
    .optional(),
  quantity: z
    .number()
    .int()
    .min(1)
    .max(MAX_CHECKOUT_LINE_QUANTITY)
    .describe(`1 to ${MAX_CHECKOUT_LINE_QUANTITY}`),
});
export type CheckoutLineInput = z.output<typeof checkoutLineInputSchema>;

const linesSchema = z
  .array(checkoutLineInputSchema)
  .min(1)
  .max(MAX_CHECKOUT_LINES)
  .describe(
    `1 to ${MAX_CHECKOUT_LINES} lines; lines naming the same item and variant are merged. No names or prices: the server prices every line from the catalog`,
  );
const emailSchema = z.email().max(320).describe('Where the order confirmation (and a cart reminder) goes');
const customerNameSchema = z.string().trim().min(1).max(200).describe('1 to 200 characters');
const customerPhoneSchema = z.string().trim().min(1).max(50).describe('At most 50 characters');
const shippingCountrySchema = countryCodeSchema.describe(
  'ISO 3166-1 alpha-2 destination country (lower case accepted)',
);
const shippingRateIdSchema = idSchema(
  'A shipping rate (`shr_…`) among the session’s `shippingOptions`; absent: the cheapest eligible rate',
);
const tokenSchema = z
  .string()
  .min(1)
  .max(200)
  .describe('The `c1_` checkout token of the create response (a credential: keep it server-side)');

const CHECKOUT_ADDRESS_NOTE =
  'Where the parcels go: `{ name, line1, line2?, city, state?, postalCode, country, phone? }` (trimmed; `line1`/`line2` 300, `city`/`state` 200, `postalCode` 32, `name` 200, `phone` 50; `country` ISO 3166-1 alpha-2). Its `country` is the shipping country: a different `shippingCountry` in the same body is 400. Copied to the order when it is placed; optional (a storefront that collects the address elsewhere may leave it out).';

/** The shopper's shipping address on a checkout session, shaped as an order's ship-to. */
export const checkoutShippingAddressSchema = shippingAddressInputSchema.describe(CHECKOUT_ADDRESS_NOTE);

/** A body's `shippingCountry`, when sent with a `shippingAddress`, must be the address's country. */
function countryMatchesAddress(
  body: {
    shippingCountry?: string | null | undefined;
    shippingAddress?: { country: string } | null | undefined;
  },
  context: z.RefinementCtx,
): void {
  if (!body.shippingAddress || body.shippingCountry === undefined || body.shippingCountry === null) return;
  if (body.shippingCountry.toUpperCase() !== body.shippingAddress.country)
    context.addIssue({
      code: 'custom',
      path: ['shippingCountry'],
      message: 'must be the country of shippingAddress (or leave it out)',
    });
}

export const createCheckoutSessionInputSchema = z
  .strictObject({
    lines: linesSchema,
    email: emailSchema.optional(),
    customerName: customerNameSchema.optional(),
    customerPhone: customerPhoneSchema.optional(),
    shippingCountry: shippingCountrySchema.optional(),
    shippingAddress: checkoutShippingAddressSchema.optional(),
    shippingRateId: shippingRateIdSchema.optional(),
  })
  .superRefine(countryMatchesAddress)
  .meta({ id: 'CheckoutSessionCreate' });
export type CreateCheckoutSessionInput = z.output<typeof createCheckoutSessionInputSchema>;

export const repriceCheckoutSessionInputSchema = z
  .strictObject({
    token: tokenSchema,
    lines: linesSchema.optional().describe('Replaces the whole cart when sent'),
    email: emailSchema.nullable().optional(),
    customerName: customerNameSchema.nullable().optional(),
    customerPhone: customerPhoneSchema.nullable().optional(),
    shippingCountry: shippingCountrySchema.nullable().optional(),
    shippingAddress: checkoutShippingAddressSchema
      .nullable()
      .optional()
      .describe(`${CHECKOUT_ADDRESS_NOTE} \`null\` clears it (the country stays)`),
    shippingRateId: shippingRateIdSchema.nullable().optional(),
  })
  .superRefine(countryMatchesAddress)
  .meta({ id: 'CheckoutSessionReprice' });
export type RepriceCheckoutSessionInput = z.output<typeof repriceCheckoutSessionInputSchema>;

export const bindCheckoutSessionInputSchema = z
  .strictObject({ token: tokenSchema, shippingRateId: shippingRateIdSchema.optional() })
  .meta({ id: 'CheckoutSessionBind' });
export type BindCheckoutSessionInput = z.output<typeof bindCheckoutSessionInputSchema>;

export const checkoutTokenInputSchema = z.strictObject({ token: tokenSchema });

export const checkoutLineSchema = z
  .object({
    type: z
      .enum(['PRODUCT', 'SERVICE'])
      .describe(
        'From the item’s type: a `SALE` item is a `PRODUCT` line (stock, shipping, returns), a `SERVICE` item a `SERVICE` line (no shipping, not returnable; stock only when its variant tracks inventory)',
      ),
    itemId: z.string(),
    variantId: z.string().nullable(),
    name: z.string().describe('The item name, with the variant name after ` / ` when there is one'),
    quantity: z.number().int(),
    unitPriceInCents: z
      .number()
      .int()
      .describe('From the catalog: the variant sale price, else the variant price, else the item price'),
    totalInCents: z.number().int(),
  })
  .meta({ id: 'CheckoutLine' });
export type CheckoutLineRead = z.infer<typeof checkoutLineSchema>;

export const shippingOptionSchema = z
  .object({
    id: z.string().describe('The shipping rate id'),
    name: z.string(),
    zoneName: z.string(),
    priceInCents: z.number().int(),
    estimatedDelivery: z.string().nullable(),
  })
  .meta({ id: 'CheckoutShippingOption' });
export type ShippingOption = z.infer<typeof shippingOptionSchema>;

export const checkoutSessionSchema = z
  .object({
    id: z.string(),
    status: z.enum(CHECKOUT_SESSION_STATUSES),
    currency: z.string(),
    email: z.string().nullable(),
    customerName: z.string().nullable(),
    customerPhone: z.string().nullable(),
    shippingCountry: z.string().nullable(),
    shippingAddress: shippingAddressSchema
      .nullable()
      .describe('The shopper’s shipping address when given (create or reprice), else null'),
    lines: z.array(checkoutLineSchema),
    shippingRequired: z
      .boolean()
      .describe(
        'Whether the cart ships: it has a `PRODUCT` line and the store has shipping zones; then a destination and a rate are needed',
      ),
    shippingOptions: z
      .array(shippingOptionSchema)
      .describe('The rates of the zones covering `shippingCountry` whose minimum subtotal the cart meets'),
    shippingRateId: z.string().nullable(),
    subtotalInCents: z.number().int(),
    shippingInCents: z.number().int(),
    taxInCents: z
      .number()
      .int()
      .describe(
        '0 until bound, and without a tax provider. With `taxIncluded`, the tax the prices already hold (not added to the total)',
      ),
    taxIncluded: z
      .boolean()
      .describe(
        'The store’s prices include tax (`checkoutSettings.taxIncludedInPrices` at bind): `totalInCents` is subtotal + shipping, and `taxInCents` is the part of it that is tax',
      ),
    totalInCents: z.number().int(),
    boundAt: z.string().nullable().describe('When the totals were frozen and the stock reserved'),
    expiresAt: z.string(),
    orderId: z.string().nullable(),
    orderNumber: z
      .number()
      .int()
      .nullable()
      .describe(
        'The order number shoppers are shown (sequential per store) once there is an order; given by the session read (`GET`), null in the answers of the steps',
      ),
    orderReference: z
      .string()
      .nullable()
      .describe(
        "`or1_…`: the order's address in the customer account once there is an order (not a credential); given by the session read (`GET`), null in the answers of the steps",
      ),
    paymentStatus: paymentStatusSchema.nullable().describe("The order's payment axis once there is an order"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'CheckoutSession' });
export type CheckoutSessionRead = z.infer<typeof checkoutSessionSchema>;

export const createdCheckoutSessionSchema = checkoutSessionSchema
  .extend({
    checkoutToken: z
      .string()
      .describe('`c1_…`: the capability for every later step, shown only here; store it as a credential'),
  })
  .meta({ id: 'CheckoutSessionCreated' });
export type CreatedCheckoutSession = z.infer<typeof createdCheckoutSessionSchema>;

export const paymentSessionSchema = z
  .object({
    publishableKey: z.string(),
    accountId: z.string().optional(),
    clientSecret: z.string().describe('`<intentId>_secret_<random>`, for the processor’s payment form'),
    orderId: z.string().nullable().describe('Null for a booking payment, which places no order'),
    orderReference: z.string().nullable(),
    amountInCents: z.number().int(),
    currency: z.string(),
  })
  .meta({ id: 'CheckoutPaymentSession' });
export type PaymentSessionRead = z.infer<typeof paymentSessionSchema>;

export const cartRemindersUnsubscribeInputSchema = z
  .strictObject({
    token: z
      .string()
      .min(1)
      .max(100)
      .describe('The `token` query parameter of the reminder’s unsubscribe link (`u1_…`)'),
  })
  .meta({ id: 'CartRemindersUnsubscribe' });

export const cartRemindersUnsubscribeResultSchema = z
  .object({ status: z.literal('UNSUBSCRIBED'), subscriptionType: z.literal('ABANDONED_CART_RECOVERY') })
  .meta({ id: 'CartRemindersUnsubscribeResult' });
