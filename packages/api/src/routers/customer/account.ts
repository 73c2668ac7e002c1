import { pageSchema } from '@commerce/core';
import {
  addressIdInputSchema,
  addressListQuerySchema,
  createAddress,
  createAddressInputSchema,
  customerAddressSchema,
  customerOrderListQuerySchema,
  customerOrderNumberInputSchema,
  customerProfileSchema,
  deleteAddress,
  getAddress,
  getCustomerOrderByNumber,
  getCustomerOrderByReference,
  getCustomerProfile,
  listAddresses,
  listCustomerOrders,
  orderReferenceInputSchema,
  updateAddress,
  updateAddressInputSchema,
  updateCustomerProfile,
  updateCustomerProfileInputSchema,
} from '@commerce/customers';
import { customerOrderSchema } from '@commerce/orders';
import { z } from 'zod';
import type { ApiContext, CustomerIdentity } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { customerProcedure, router } from '../../trpc.ts';
import { limitSignIn } from '../public/customer-auth/sign-in.ts';

const PROFILE_TAGS = ['Customer: profile'];
const ADDRESS_TAGS = ['Customer: addresses'];
const ORDER_TAGS = ['Customer: orders'];

const owner = (ctx: { customer: CustomerIdentity }) => ({
  organizationId: ctx.customer.organizationId,
  customerId: ctx.customer.id,
});
const writer = (ctx: ApiContext & { customer: CustomerIdentity }) => ({ ...owner(ctx), at: ctx.clock.now() });

const ORDER_READ =
  'An order is the customer’s when its `customerEmail` equals their verified email (case-insensitive). A legacy order (`POST /public/orders`, which anyone can send with any email) shows only once the merchant has confirmed it: status `CONFIRMED`, `PROCESSING` or `COMPLETED`; until then, and when cancelled, it is absent (a `404` when addressed). It carries `orderReference` (the primary address), `orderNumber` (display), lines, totals, `status`, `paymentStatus`, `fulfillmentStatus` and `shipments[]` (its `SHIPPED` and `DELIVERED` fulfillments, oldest first: status, carrier, tracking, `shippedAt`, `deliveredAt`, the units shipped; never postage, charges, plans or cancelled ones); merchant notes are never shown.';
const NEUTRAL_404 =
  'An unknown, malformed, another store’s or another customer’s value is the same neutral `404 RESOURCE_NOT_FOUND`.';

export const customerAccountRouter = router({
  getProfile: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/profile',
        tags: PROFILE_TAGS,
        summary: 'The signed-in customer’s profile',
        description:
          'Name, email, phone and the email-verified state of the customer the session belongs to. `pendingEmail` is a new address asked for through `PATCH` and not yet verified.',
      },
    })
    .input(z.object({}))
    .output(customerProfileSchema)
    .query(({ ctx }) => getCustomerProfile(ctx.db, ctx.customer.organizationId, ctx.customer.id)),

  updateProfile: customerProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/customer/account/profile',
        tags: PROFILE_TAGS,
        summary: 'Update name and phone; ask to change the email',
        description: [
          'Body: any of `name` (at most 200), `phone` (at most 50) — `null` or an empty string clears — and `email`. Unknown keys are `400`. Answers the profile.',
          'An `email` different from the current one is not applied: it becomes `pendingEmail`, and a `CUSTOMER_AUTH` email with a link and a code goes to the new address. Verifying it through `POST /public/customer/auth/verify` changes `email` (and signs in); a later request replaces the pending one, and sending the current email withdraws it. If another customer of the store has the new email by then, the verification fails with the neutral `401 VERIFICATION_FAILED`. Asking for a new email is rate-limited like a sign-in request (per client, and per the new email).',
        ].join('\n\n'),
      },
      errors: ['RATE_LIMIT_EXCEEDED'],
    })
    .input(updateCustomerProfileInputSchema)
    .output(customerProfileSchema)
    .mutation(async ({ ctx, input }) => {
      const organizationId = ctx.customer.organizationId;
      if (input.email !== undefined && input.email.toLowerCase() !== ctx.customer.email.toLowerCase()) {
        await limitSignIn(ctx, organizationId, 'request', input.email);
      }
      return updateCustomerProfile(
        ctx.db,
        {
          organizationId,
          at: ctx.clock.now(),
          email: customerEmailConfig(ctx),
        },
        ctx.customer.id,
        input,
      );
    }),

  listAddresses: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/addresses',
        tags: ADDRESS_TAGS,
        summary: 'The address book',
        description:
          'Newest first, `{ data, nextCursor }`: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no address of the customer is `400`.',
      },
    })
    .input(addressListQuerySchema)
    .output(pageSchema(customerAddressSchema))
    .query(({ ctx, input }) => listAddresses(ctx.db, owner(ctx), input)),

  createAddress: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/account/addresses',
        tags: ADDRESS_TAGS,
        summary: 'Add an address',
        description:
          'Body: `line1` (1 to 300), `city` (1 to 200), `country` (2 letters, stored uppercase) required; `name`, `company` (at most 200), `line2` (300), `state` (200), `postalCode` (32), `phone` (50) optional; `isDefaultShipping`, `isDefaultBilling` (default false). A customer has at most one default-shipping and one default-billing address (enforced by the database): taking a default clears the previous one in the same transaction. Answers `201` with the address.',
      },
      successStatus: 201,
    })
    .input(createAddressInputSchema)
    .output(customerAddressSchema)
    .mutation(({ ctx, input }) => createAddress(ctx.db, writer(ctx), input)),

  getAddress: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/addresses/{id}',
        tags: ADDRESS_TAGS,
        summary: 'One address',
        description: `${NEUTRAL_404.replace('value', 'address id')}`,
      },
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(addressIdInputSchema)
    .output(customerAddressSchema)
    .query(({ ctx, input }) => getAddress(ctx.db, owner(ctx), input.id)),

  updateAddress: customerProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/customer/account/addresses/{id}',
        tags: ADDRESS_TAGS,
        summary: 'Change an address',
        description: `Any of the create fields; those not sent stay. \`isDefaultShipping: true\` (or billing) makes it the default and clears the previous default in the same transaction; \`false\` on the default leaves none. ${NEUTRAL_404.replace('value', 'address id')} Answers the address.`,
      },
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(updateAddressInputSchema)
    .output(customerAddressSchema)
    .mutation(({ ctx, input }) => updateAddress(ctx.db, writer(ctx), input)),

  deleteAddress: customerProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/customer/account/addresses/{id}',
        tags: ADDRESS_TAGS,
        summary: 'Remove an address',
        description: `Answers \`204\`. Removing a default address leaves the customer without that default. ${NEUTRAL_404.replace('value', 'address id')}`,
      },
      successStatus: 204,
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(addressIdInputSchema)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteAddress(ctx.db, owner(ctx), input.id)),

  listOrders: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/orders',
        tags: ORDER_TAGS,
        summary: 'The customer’s orders, newest first',
        description: `Newest first, \`{ data, nextCursor }\`: pass \`nextCursor\` as \`cursor\` (\`limit\` 1 to 200, default 50); a cursor that names no order of the customer is \`400\`. ${ORDER_READ}`,
      },
    })
    .input(customerOrderListQuerySchema)
    .output(pageSchema(customerOrderSchema))
    .query(({ ctx, input }) =>
      listCustomerOrders(
        ctx.db,
        { organizationId: ctx.customer.organizationId, email: ctx.customer.email },
        input,
      ),
    ),

  getOrderByReference: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/orders/by-reference/{orderReference}',
        tags: ORDER_TAGS,
        summary: 'One of the customer’s orders by its reference (primary)',
        description: `${NEUTRAL_404.replace('value', '`orderReference`')} ${ORDER_READ}`,
      },
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(orderReferenceInputSchema)
    .output(customerOrderSchema)
    .query(({ ctx, input }) =>
      getCustomerOrderByReference(
        ctx.db,
        { organizationId: ctx.customer.organizationId, email: ctx.customer.email },
        input.orderReference,
      ),
    ),

  getOrderByNumber: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/orders/{orderNumber}',
        tags: ORDER_TAGS,
        summary: 'One of the customer’s orders by its display number (compatibility)',
        description: `Kept for compatibility; new links use the by-reference route. ${NEUTRAL_404.replace('value', 'number')} ${ORDER_READ}`,
      },
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(customerOrderNumberInputSchema)
    .output(customerOrderSchema)
    .query(({ ctx, input }) =>
      getCustomerOrderByNumber(
        ctx.db,
        { organizationId: ctx.customer.organizationId, email: ctx.customer.email },
        input.orderNumber,
      ),
    ),
});
