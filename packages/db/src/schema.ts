import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The live schema, kept by hand beside the migrations and checked against the
 * migrated database by `db.test.ts`. Every tenant-owned table starts its
 * primary key with `organization_id` so that it can be distributed by tenant.
 */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T = unknown> = ColumnType<T, string, string>;
/** A JSON column with a database default: optional on insert. */
type JsonWithDefault<T = unknown> = ColumnType<T, string | undefined, string>;

export interface OrganizationsTable {
  id: string;
  slug: string;
  name: string;
  status: Generated<'ACTIVE' | 'SUSPENDED'>;
  created_at: Timestamp;
}

/** Merchant users are global: one identity-provider subject, many memberships. */
export interface MerchantUsersTable {
  id: string;
  subject: string;
  email: string;
  /** Whether the identity provider vouched for `email` at the latest sign-in. */
  email_verified: Generated<boolean>;
  name: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type MembershipRole = 'Owner' | 'Admin' | 'Staff';
export type MembershipStatus = 'PENDING' | 'ACTIVE';

export interface MembershipsTable {
  organization_id: string;
  id: string;
  /** Null while the membership waits for its first sign-in. */
  user_id: string | null;
  email: string;
  /** The name given when the membership was granted, shown until the user signs in with their own. */
  invited_name: string | null;
  role: MembershipRole;
  permissions: Json<string[]>;
  status: MembershipStatus;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AuditLogsTable {
  organization_id: string;
  id: string;
  actor_user_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  metadata: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export type OutboxStatus = 'PENDING' | 'PROCESSING' | 'DONE' | 'FAILED';

export interface OutboxTable {
  organization_id: string;
  id: string;
  kind: string;
  /** Delivery metadata that outlives the body (type, recipient's domain, ids). */
  metadata: Json<Record<string, unknown>>;
  /** The rendered message; cleared once the row is delivered or finally failed. */
  payload: Json<Record<string, unknown>> | null;
  status: Generated<OutboxStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: Date | null;
  last_error: string | null;
  created_at: Timestamp;
  delivered_at: Date | null;
  /** Unique per tenant where set: a message that must go once (`ORDER_SHIPPED:<ful_…>`). */
  dedupe_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A merchant's webhook receiver (docs/webhooks.md). No secret is stored: it is derived from the salt. */
export interface WebhookEndpointsTable {
  organization_id: string;
  id: string;
  url: string;
  /** The event types the endpoint receives. */
  events: Json<string[]>;
  description: string | null;
  status: Generated<WebhookEndpointStatus>;
  /** Why the endpoint was disabled: `FAILING` (by the worker) or `MERCHANT`. */
  disabled_reason: string | null;
  secret_salt: string;
  previous_secret_salt: string | null;
  previous_secret_expires_at: Date | null;
  /** The start of the current run of failed attempts; null after a success. */
  failing_since: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type WebhookEndpointStatus = 'ENABLED' | 'DISABLED';
export type WebhookDeliveryStatus = 'PENDING' | 'PROCESSING' | 'DELIVERED' | 'FAILED';

/** One event for one endpoint: the webhook outbox. */
export interface WebhookDeliveriesTable {
  organization_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** The object whose events go in order (a booking's id); null for events of no order. */
  ordering_key: string | null;
  sequence: Generated<string>;
  /** The JSON body exactly as signed and sent. */
  body: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Date | null;
}

/** What the development email transport "sent" (used while SMTP_URL is unset). */
export interface DevEmailsTable {
  organization_id: string;
  id: string;
  outbox_id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Timestamp;
}

/** Storage of rate-limiter-flexible's PostgreSQL store. */
export interface RateLimitsTable {
  key: string;
  points: Generated<number>;
  expire: string | null;
}

/**
 * One idempotency key of a tenant's operation (docs/api.md "Idempotency keys"): hashes
 * only, and the committed success to replay. `response_status` is null only
 * inside the claiming transaction.
 */
export interface IdempotencyKeysTable {
  organization_id: string;
  operation: string;
  key_hash: string;
  intent_hash: string;
  /** `{ field: sha-256 }` per top-level body field, to name the fields that differ on reuse. */
  intent_fields: Json<Record<string, string>>;
  response_status: number | null;
  response_body: Json | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A payment webhook event already applied: its id makes a replay a no-op. */
export interface PaymentWebhookEventsTable {
  event_id: string;
  type: string;
  intent_id: string | null;
  received_at: Timestamp;
}

/** One row per organization; each category is a JSON object of known keys (validated by the service). */
export interface OrganizationSettingsTable {
  organization_id: string;
  business_profile: JsonWithDefault<Record<string, unknown>>;
  checkout_settings: JsonWithDefault<Record<string, unknown>>;
  api_settings: JsonWithDefault<Record<string, unknown>>;
  notifications: JsonWithDefault<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OnboardingStepsTable {
  organization_id: string;
  step_key: string;
  /** The step's place in the canonical list. */
  position: number;
  completed_at: Date | null;
  /** The merchant user id that completed the step. */
  completed_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A merchant's override of the writable slots of one email template type; null keeps the default. */
export interface EmailTemplateOverridesTable {
  organization_id: string;
  type: string;
  subject: string | null;
  heading: string | null;
  body_text: string | null;
  cta_label: string | null;
  from_name: string | null;
  reply_to: string | null;
  updated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ItemType = 'RENTAL' | 'SALE' | 'SERVICE';
export type ItemStatus = 'ACTIVE' | 'DRAFT' | 'ARCHIVED';

export interface ItemsTable {
  organization_id: string;
  id: string;
  slug: string;
  name: string;
  description: string | null;
  tags: JsonWithDefault<string[]>;
  type: ItemType;
  status: ItemStatus;
  sort_order: Generated<number>;
  price_in_cents: number | null;
  metafields: JsonWithDefault<Record<string, unknown>>;
  /** Lower-cased name, description and tags, kept by the item service for substring search. */
  search_text: Generated<string>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Shipping dimensions: a unit's come from its variant when it has all four, else its item's. */
  shipping_weight_grams: number | null;
  shipping_length_mm: number | null;
  shipping_width_mm: number | null;
  shipping_height_mm: number | null;
  /** The item's low-stock level; null: the store's `notifications.lowStockThreshold`. */
  low_stock_threshold: number | null;
}

/** A package or kit: the parent item is made of its components. */
export interface ItemComponentsTable {
  organization_id: string;
  parent_item_id: string;
  component_item_id: string;
  quantity: Generated<number>;
}

export interface VariantsTable {
  organization_id: string;
  id: string;
  item_id: string;
  sku: string | null;
  name: string;
  options: JsonWithDefault<Record<string, string>>;
  price_in_cents: number | null;
  sale_price_in_cents: number | null;
  /** Null: stock is not tracked. */
  inventory_quantity: number | null;
  sort_order: Generated<number>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Shipping dimensions: a unit's come from its variant when it has all four, else its item's. */
  shipping_weight_grams: number | null;
  shipping_length_mm: number | null;
  shipping_width_mm: number | null;
  shipping_height_mm: number | null;
}

export interface CollectionsTable {
  organization_id: string;
  id: string;
  slug: string;
  name: string;
  description: string | null;
  status: 'ACTIVE' | 'DRAFT';
  sort_order: Generated<number>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CollectionItemsTable {
  organization_id: string;
  collection_id: string;
  item_id: string;
  position: number;
  created_at: Timestamp;
}

export interface PagesTable {
  organization_id: string;
  id: string;
  slug: string;
  title: string;
  /** Sanitised HTML. */
  content: string;
  excerpt: string | null;
  status: 'PUBLISHED' | 'DRAFT';
  archived_at: Date | null;
  published_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ShippingZonesTable {
  organization_id: string;
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2 codes, upper case. */
  countries: JsonWithDefault<string[]>;
  sort_order: Generated<number>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A box a merchant packs into (a box preset); `revision` is 1 on create, +1 per update. */
export interface BoxPresetsTable {
  organization_id: string;
  id: string;
  name: string;
  inner_length_mm: number;
  inner_width_mm: number;
  inner_height_mm: number;
  /** Null: the same as the inner dimension. */
  outer_length_mm: number | null;
  outer_width_mm: number | null;
  outer_height_mm: number | null;
  tare_weight_grams: number;
  /** Null: no load limit of its own. */
  max_load_grams: number | null;
  sort_order: Generated<number>;
  revision: Generated<number>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ShippingRatesTable {
  organization_id: string;
  id: string;
  zone_id: string;
  name: string;
  price_in_cents: number;
  minimum_subtotal_in_cents: number | null;
  estimated_delivery: string | null;
  sort_order: Generated<number>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ReviewStatus = 'PENDING' | 'PUBLISHED' | 'REJECTED';

export interface ReviewsTable {
  organization_id: string;
  id: string;
  item_id: string;
  rating: number;
  author_name: string;
  /** Never returned publicly: de-duplication and verified-purchase matching only. */
  author_email: string;
  title: string | null;
  body: string | null;
  status: Generated<ReviewStatus>;
  verified_purchase: Generated<boolean>;
  moderated_by: string | null;
  moderated_at: Date | null;
  created_at: Timestamp;
}

export type StockSubscriptionStatus = 'ACTIVE' | 'NOTIFIED' | 'UNSUBSCRIBED';

export interface StockSubscriptionsTable {
  organization_id: string;
  id: string;
  item_id: string;
  variant_id: string | null;
  email: string;
  /** NOTIFIED: the back-in-stock email went out; a new signup makes it ACTIVE again. */
  status: Generated<StockSubscriptionStatus>;
  last_notified_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One unsubscribe link sent by email: the SHA-256 of its token and what it ends. */
export interface EmailUnsubscribeTokensTable {
  token_hash: string;
  organization_id: string;
  subscription_type: 'STOCK_NOTIFICATION';
  subscription_id: string;
  created_at: Timestamp;
}

/** A shopper's account in one organization; created by the first verified sign-in of its email. */
export interface CustomersTable {
  organization_id: string;
  id: string;
  email: string;
  email_verified_at: Date | null;
  /** A new address awaiting verification; `email` changes only once it is verified. */
  pending_email: string | null;
  name: string | null;
  phone: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type CustomerChallengePurpose = 'SIGN_IN' | 'EMAIL_CHANGE';

/** One sign-in (or email-change) email: hashes of its link token and code, its attempts and expiry. */
export interface CustomerSignInChallengesTable {
  organization_id: string;
  id: string;
  purpose: CustomerChallengePurpose;
  email: string;
  customer_id: string | null;
  link_token_hash: string | null;
  code_hash: string;
  failed_attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: Date | null;
  created_at: Timestamp;
}

/** A customer session: `id` is the SHA-256 (hex) of its `s1_` token, which is never stored. */
export interface CustomerSessionsTable {
  organization_id: string;
  id: string;
  customer_id: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** An address-book entry; at most one default-shipping and one default-billing per customer. */
export interface CustomerAddressesTable {
  organization_id: string;
  id: string;
  customer_id: string;
  name: string | null;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postal_code: string | null;
  country: string;
  phone: string | null;
  is_default_shipping: Generated<boolean>;
  is_default_billing: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A self-serve signup request, for the platform operator (not tenant data). */
export interface SignupRequestsTable {
  id: string;
  email: string;
  name: string | null;
  company_name: string | null;
  website: string | null;
  message: string | null;
  source_organization_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type SalesRecordSource = 'LEGACY_ORDER' | 'CHECKOUT' | 'BOOKING';
export type SalesLineType = 'PRODUCT' | 'SERVICE' | 'CUSTOM' | 'FEE' | 'DEPOSIT' | 'ADJUSTMENT';
export type OrderStatus = 'PENDING' | 'CONFIRMED' | 'PROCESSING' | 'COMPLETED' | 'CANCELLED';
export type FulfillmentStatus = 'UNFULFILLED' | 'PARTIALLY_FULFILLED' | 'FULFILLED';
export type PaymentStatus = 'NOT_REQUIRED' | 'AWAITING_PAYMENT' | 'PAID' | 'FAILED' | 'REFUNDED';

/** The next order number of a tenant, taken and incremented inside the creating transaction. */
export interface OrderNumberCountersTable {
  organization_id: string;
  next_number: number;
}

/** The durable record of a sale (an order now, a booking later); amounts in integer cents. */
export interface SalesRecordsTable {
  organization_id: string;
  id: string;
  source: SalesRecordSource;
  currency: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string | null;
  subtotal_in_cents: number;
  shipping_in_cents: Generated<number>;
  tax_in_cents: Generated<number>;
  discount_in_cents: Generated<number>;
  total_in_cents: number;
  payment_status: PaymentStatus;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The prices hold the tax: `tax_in_cents` is recorded, not added to the total. */
  tax_included: Generated<boolean>;
  /** Derived from the PRODUCT lines' shipped counters; rewritten with every counter change. */
  fulfillment_status: Generated<FulfillmentStatus>;
  /** The ship-to snapshot labels use; null until one is set. */
  shipping_address: ColumnType<ShippingAddressSnapshot | null, string | null | undefined, string | null>;
}

/** One typed line of a sales record; item and variant ids are snapshots, not foreign keys. */
export interface SalesRecordLinesTable {
  organization_id: string;
  id: string;
  sales_record_id: string;
  position: number;
  type: SalesLineType;
  item_id: string | null;
  variant_id: string | null;
  name: string;
  quantity: number;
  unit_price_in_cents: number;
  total_in_cents: number;
  created_at: Timestamp;
  /** Units in SHIPPED and DELIVERED fulfillments (PRODUCT lines only). */
  shipped_quantity: Generated<number>;
  /** Units in PLANNED and READY fulfillments. `shipped + allocated <= quantity` is a CHECK. */
  allocated_quantity: Generated<number>;
}

/** The order: a projection of its sales record, written in the same transaction. */
export interface OrdersTable {
  organization_id: string;
  id: string;
  sales_record_id: string;
  /** Null only on legacy orders that predate the reference backfill. */
  order_reference: string | null;
  order_number: number;
  status: Generated<OrderStatus>;
  /** Derived from fulfillment records; never written by a client. */
  fulfillment_status: Generated<FulfillmentStatus>;
  payment_status: PaymentStatus;
  currency: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string | null;
  /** Merchant-internal; stripped from every public read. */
  notes: string | null;
  item_count: number;
  subtotal_in_cents: number;
  shipping_in_cents: number;
  tax_in_cents: number;
  discount_in_cents: number;
  total_in_cents: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The prices hold the tax: `tax_in_cents` is recorded, not added to the total. */
  tax_included: Generated<boolean>;
  /** The projection of the sales record's ship-to snapshot. */
  shipping_address: ColumnType<ShippingAddressSnapshot | null, string | null | undefined, string | null>;
}

/** Where an order's parcels go: trimmed, optional lines null, country upper case. */
export interface ShippingAddressSnapshot {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postalCode: string;
  country: string;
  phone: string | null;
}

/** One read-only order-status link sent: the SHA-256 of its `o1_` token and the order it shows. */
export interface OrderStatusTokensTable {
  token_hash: string;
  organization_id: string;
  order_id: string;
  created_at: Timestamp;
}

export type CheckoutSessionStatus =
  | 'OPEN'
  | 'BOUND'
  | 'AWAITING_PAYMENT'
  | 'PAYMENT_FAILED'
  | 'COMPLETED'
  | 'EXPIRED'
  | 'CANCELLED';

/** A server-authoritative cart behind a hashed `c1_` capability (docs/checkout.md "Checkout sessions"). */
export interface CheckoutSessionsTable {
  organization_id: string;
  id: string;
  token_hash: string;
  status: CheckoutSessionStatus;
  currency: string;
  email: string | null;
  customer_name: string | null;
  customer_phone: string | null;
  shipping_country: string | null;
  shipping_rate_id: string | null;
  shipping_rate_name: string | null;
  /** The latest quote; frozen once bound. */
  subtotal_in_cents: Generated<number>;
  shipping_in_cents: Generated<number>;
  tax_in_cents: Generated<number>;
  total_in_cents: Generated<number>;
  bound_at: Date | null;
  expires_at: Timestamp;
  completed_at: Date | null;
  abandoned_email_queued_at: Date | null;
  order_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the session was first bound: its hold ends CHECKOUT_HOLD_MINUTES later, whatever the rebinds. */
  first_bound_at: Date | null;
  /** SHA-256 key of tenant and client address of the binder: the per-client cap on held units counts by it. */
  hold_client_key: string | null;
  /** The prices hold the tax: `tax_in_cents` is recorded, not added to the total. */
  tax_included: Generated<boolean>;
  /** Where the parcels go, when the shopper gave it (the hosted checkout does); copied to the order. */
  shipping_address: ColumnType<ShippingAddressSnapshot | null, string | null | undefined, string | null>;
  /** A booking payment's session: the Sales record it pays; no lines, no order, never repriced. */
  sales_record_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Further `c1_` tokens of one checkout session (a conversion replay's fresh credential), SHA-256 only. */
export interface CheckoutSessionTokensTable {
  token_hash: string;
  organization_id: string;
  checkout_session_id: string;
  created_at: Timestamp;
}

export type CheckoutLineType = 'PRODUCT' | 'SERVICE';

export interface CheckoutSessionLinesTable {
  organization_id: string;
  id: string;
  checkout_session_id: string;
  position: number;
  item_id: string;
  variant_id: string | null;
  quantity: number;
  name: string;
  unit_price_in_cents: number;
  created_at: Timestamp;
  /** From the item's type when priced: SALE gives PRODUCT, SERVICE gives SERVICE. */
  type: Generated<CheckoutLineType>;
}

export type InventoryReservationStatus = 'ACTIVE' | 'RELEASED' | 'CONSUMED';

/** Stock a bound checkout session took off a tracked variant: put back when RELEASED, kept when CONSUMED. */
export interface InventoryReservationsTable {
  organization_id: string;
  id: string;
  checkout_session_id: string;
  variant_id: string;
  quantity: number;
  status: InventoryReservationStatus;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Units of it that shipments drew (its stock left at checkout, so they take none again). */
  fulfilled_quantity: Generated<number>;
}

export type PaymentAttemptStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED' | 'REFUNDED';
/** A processor call an attempt still owes: cancel its intent (order cancelled unpaid), refund it (paid after that). */
export type PaymentProviderAction = 'CANCEL' | 'REFUND';

/** The one payment intent of a checkout session; its id is the processor's idempotency key. */
export interface PaymentAttemptsTable {
  organization_id: string;
  id: string;
  checkout_session_id: string;
  /** Null for a booking payment: its session names the Sales record it pays. */
  order_id: string | null;
  provider: 'sandbox' | 'stripe';
  intent_id: string | null;
  client_secret: string | null;
  publishable_key: string | null;
  account_id: string | null;
  status: PaymentAttemptStatus;
  amount_in_cents: number;
  currency: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Null when nothing is owed; made after the commit that records it, retried by the worker. */
  provider_action: PaymentProviderAction | null;
  /** When the owed call is tried next; null exactly when nothing is owed. */
  provider_action_due_at: Date | null;
  provider_action_tries: Generated<number>;
  /** The processor's refund, once it refunded a REFUNDED attempt. */
  refund_id: string | null;
}

/** One abandoned-cart reminder's unsubscribe link: the SHA-256 of its token and the address it stops. */
export interface AbandonedCartUnsubscribeTokensTable {
  token_hash: string;
  organization_id: string;
  email: string;
  created_at: Timestamp;
}

export interface AbandonedCartOptOutsTable {
  organization_id: string;
  email: string;
  created_at: Timestamp;
}

export type BookingResourceKind = 'STAFF' | 'SPACE' | 'EQUIPMENT' | 'VEHICLE' | 'OTHER';
export type BookingResourceStatus = 'ACTIVE' | 'ARCHIVED';

export interface BookingResourcesTable {
  organization_id: string;
  id: string;
  name: string;
  kind: BookingResourceKind;
  capacity: number;
  /** A member's user, for assignment (STAFF only). */
  user_id: string | null;
  status: BookingResourceStatus;
  metafields: JsonWithDefault<Record<string, unknown>>;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type BookingServiceStatus = 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
export type BookingPeriodMode = 'EXACT_RANGE' | 'FIXED_DURATION' | 'FIXED_SLOT';

/** The rule-shaped columns hold what the bookings package's schemas validated; it types them. */
export interface BookingServicesTable {
  organization_id: string;
  id: string;
  slug: string;
  name: string;
  description: string | null;
  status: BookingServiceStatus;
  item_id: string | null;
  period_mode: BookingPeriodMode;
  timezone: string;
  durations: Json<Record<string, unknown>>;
  fixed_slots: JsonWithDefault<unknown[]>;
  availability: Json<Record<string, unknown>>;
  party_size_min: number;
  party_size_max: number;
  pricing: Json<Record<string, unknown> | null>;
  checkout: Json<Record<string, unknown>>;
  policies: Json<Record<string, unknown>>;
  delivery: Json<Record<string, unknown>>;
  agreement: Json<Record<string, unknown> | null>;
  agreement_version: Generated<number>;
  sort_order: Generated<number>;
  metafields: JsonWithDefault<Record<string, unknown>>;
  search_text: Generated<string>;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BookingRequirementsTable {
  organization_id: string;
  id: string;
  service_id: string;
  position: number;
  name: string;
  units_mode: 'PER_BOOKING' | 'PER_PARTICIPANT';
  /** PER_BOOKING only. */
  units_count: number | null;
  selection: 'AUTO' | 'OPTIONAL' | 'REQUIRED';
  allow_split: Generated<boolean>;
  created_at: Timestamp;
}

/** A requirement's pool: its resources in preference order. */
export interface BookingRequirementResourcesTable {
  organization_id: string;
  requirement_id: string;
  resource_id: string;
  position: number;
}

export interface BookingBlackoutsTable {
  organization_id: string;
  id: string;
  resource_id: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  reason: string | null;
  created_at: Timestamp;
  removed_at: Timestamp | null;
}

export type BookingHoldStatus = 'ACTIVE' | 'CONVERTED' | 'RELEASED' | 'EXPIRED';

export interface BookingHoldsTable {
  organization_id: string;
  id: string;
  service_id: string;
  status: BookingHoldStatus;
  starts_at: Timestamp;
  ends_at: Timestamp;
  quantity: number;
  customer_email: string;
  /** The signed-in customer who made the hold; null for a guest. */
  customer_id: string | null;
  /** SHA-256 of the create's idempotency key: proves possession for release and conversion. */
  key_hash: string;
  /** SHA-256 of the client address, for the active-holds limit. */
  client_key: string;
  /** Made by a signed-in customer whose verified email is `customer_email` (the per-email limit). */
  email_proven: Generated<boolean>;
  snapshot: Json<Record<string, unknown>>;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type BookingStatus =
  | 'REQUESTED'
  | 'PENDING_PAYMENT'
  | 'CONFIRMED'
  | 'DECLINED'
  | 'CANCELLED'
  | 'EXPIRED';
export type BookingChangeRequestStatus = 'PENDING' | 'APPROVED' | 'DECLINED' | 'WITHDRAWN';
export type BookingRequirementSelection = 'AUTO' | 'OPTIONAL' | 'REQUIRED';

/** A booking (docs/bookings.md): snapshots of its service, price and delivery; `history` append-only. */
export interface BookingsTable {
  organization_id: string;
  id: string;
  /** `BK-` and 8 Crockford base32 characters, unique per tenant. */
  code: string;
  service_id: string;
  hold_id: string | null;
  status: BookingStatus;
  starts_at: Timestamp;
  ends_at: Timestamp;
  quantity: number;
  timezone: string;
  customer_id: string | null;
  customer_name: string;
  customer_email: string;
  customer_phone: string | null;
  customer_note: string | null;
  billing_address: Json<Record<string, unknown>> | null;
  delivery: Json<Record<string, unknown>> | null;
  snapshot: Json<Record<string, unknown>>;
  currency: string;
  subtotal_in_cents: number;
  delivery_fee_in_cents: Generated<number>;
  tax_in_cents: Generated<number>;
  total_in_cents: number;
  amount_due_now_in_cents: number;
  sales_record_id: string | null;
  payment_expires_at: Timestamp | null;
  request_expires_at: Timestamp | null;
  voided_at: Timestamp | null;
  refund_required: Generated<boolean>;
  assignee_user_ids: ColumnType<string[], string[] | undefined, string[]>;
  agreements: JsonWithDefault<Record<string, unknown>[]>;
  history: JsonWithDefault<Record<string, unknown>[]>;
  group_id: string | null;
  /** The client key of the hold it was converted from: unpaid, it counts against that client's holds. */
  client_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** The hold's `email_proven`: unpaid, it counts against that email's holds of the same kind. */
  email_proven: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The resources a booking was given, per requirement; kept while it holds no claim. */
export interface BookingAllocationsTable {
  organization_id: string;
  booking_id: string;
  requirement_id: string;
  resource_id: string;
  quantity: number;
  selection: BookingRequirementSelection;
  position: number;
}

/** A customer's cancel or reschedule request awaiting the merchant; one PENDING per booking. */
export interface BookingChangeRequestsTable {
  organization_id: string;
  id: string;
  booking_id: string;
  kind: 'CANCEL' | 'RESCHEDULE';
  status: BookingChangeRequestStatus;
  starts_at: Timestamp | null;
  ends_at: Timestamp | null;
  reason: string | null;
  actor: 'CUSTOMER' | 'GUEST';
  decided_by_user_id: string | null;
  decision_reason: string | null;
  decided_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Guest management tokens `m1_`, SHA-256 only; one mutation each, replayable from `consumed_action`. */
export interface BookingManagementTokensTable {
  token_hash: string;
  organization_id: string;
  booking_id: string;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  consumed_at: Timestamp | null;
  consumed_action: Json<Record<string, unknown>> | null;
  created_at: Timestamp;
}

/**
 * Booking emails to one recipient in one tenant within the current hour's window, and those held
 * back beyond the cap (BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR). `recipient_key` is the SHA-256 of
 * the lower-cased address, or of `proven:` and it for the emails of bookings whose hold a signed-in
 * customer made in their own verified email (counted apart).
 */
export interface BookingEmailLimitsTable {
  organization_id: string;
  recipient_key: string;
  window_started_at: Timestamp;
  sent_in_window: number;
  held_in_window: Generated<number>;
  held_total: Generated<number>;
  last_held_at: Timestamp | null;
}

/**
 * Units of a resource over `during` (a '[)' tstzrange, buffers included), live
 * until released or expired. `start_minute` and `end_minute` are set by the
 * capacity trigger; insert any value.
 */
export interface BookingCapacityClaimsTable {
  organization_id: string;
  id: string;
  resource_id: string;
  quantity: number;
  /** Read back as PostgreSQL's range text, e.g. `["2026-07-01 09:00:00+00","2026-07-01 12:00:00+00")`. */
  during: ColumnType<string, string, never>;
  start_minute: ColumnType<number, number | undefined, never>;
  end_minute: ColumnType<number, number | undefined, never>;
  expires_at: Timestamp | null;
  released_at: Timestamp | null;
  hold_id: string | null;
  booking_id: string | null;
  blackout_id: string | null;
  created_at: Timestamp;
}

export type ReturnStatus = 'REQUESTED' | 'APPROVED' | 'RECEIVED' | 'COMPLETED' | 'REJECTED' | 'CANCELLED';
export type ReturnReason =
  | 'DAMAGED'
  | 'DEFECTIVE'
  | 'WRONG_ITEM'
  | 'NOT_AS_DESCRIBED'
  | 'SIZE_OR_FIT'
  | 'NO_LONGER_NEEDED'
  | 'OTHER';

/** A customer's request to send back quantities of an order's PRODUCT lines. */
export interface ReturnsTable {
  organization_id: string;
  id: string;
  order_id: string;
  status: ReturnStatus;
  customer_id: string | null;
  customer_email: string;
  channel: 'ACCOUNT' | 'ACTION_TOKEN';
  currency: string;
  refund_total_in_cents: number;
  rejection_reason: string | null;
  approved_at: Date | null;
  received_at: Date | null;
  completed_at: Date | null;
  rejected_at: Date | null;
  cancelled_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReturnLinesTable {
  organization_id: string;
  return_id: string;
  sales_record_line_id: string;
  position: number;
  quantity: number;
  reason: ReturnReason;
  note: string | null;
}

export type ActionTokenPurpose = 'RETURN_REQUEST';

/** A hashed `a1_` action token: one purpose, the lines eligible at issue, and the one action it performed. */
export interface ActionTokensTable {
  organization_id: string;
  token_hash: string;
  purpose: ActionTokenPurpose;
  customer_id: string;
  customer_email: string;
  order_id: string;
  eligible_lines: Json;
  expires_at: Date;
  revoked_at: Date | null;
  consumed_at: Date | null;
  action: string | null;
  request_hash: string | null;
  result: Json | null;
  return_id: string | null;
  created_at: Timestamp;
}

export type FulfillmentRecordStatus = 'PLANNED' | 'READY' | 'SHIPPED' | 'DELIVERED' | 'CANCELLED';
export type FulfillmentOrigin = 'DIRECT' | 'PLANNED' | 'NATIVE_LABEL' | 'LEGACY';
export type NotificationDecision = 'SEND' | 'SUPPRESS';

/** One shipment of some units of a sales record's PRODUCT lines (docs/fulfillment.md "Fulfillment records"). */
export interface FulfillmentsTable {
  organization_id: string;
  id: string;
  sales_record_id: string;
  /** The legacy order of the record, when it has one. */
  order_id: string | null;
  status: FulfillmentRecordStatus;
  origin: FulfillmentOrigin;
  tracking_carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  /** Merchant-internal. */
  note: string | null;
  notification_decision: NotificationDecision | null;
  notification_decided_at: Date | null;
  notification_decided_by: string | null;
  notification_email_queued: Generated<boolean>;
  inventory_consumed_at: Date | null;
  shipped_at: Date | null;
  delivered_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  version: Generated<number>;
  /** The package: box preset and revision (null for custom dimensions), outer mm, loaded weight. */
  package_box_preset_id: ColumnType<string | null, string | null | undefined, string | null>;
  package_box_preset_revision: ColumnType<number | null, number | null | undefined, number | null>;
  package_length_mm: ColumnType<number | null, number | null | undefined, number | null>;
  package_width_mm: ColumnType<number | null, number | null | undefined, number | null>;
  package_height_mm: ColumnType<number | null, number | null | undefined, number | null>;
  package_loaded_weight_grams: ColumnType<number | null, number | null | undefined, number | null>;
  /** Set by tracking repair: from then on the tracking columns are the tracking, even cleared. */
  tracking_repaired_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The units of one line in one fulfillment, fixed at creation, with the line's names as they were. */
export interface FulfillmentLinesTable {
  organization_id: string;
  fulfillment_id: string;
  line_id: string;
  position: number;
  item_id: string | null;
  variant_id: string | null;
  sku: string | null;
  name: string;
  quantity: number;
}

export type PostageSource = 'NATIVE' | 'EXTERNAL' | 'LEGACY';
export type PostageStatus = 'ACTIVE' | 'VOID_PENDING' | 'VOIDED' | 'RETIRED';

/** One label on one fulfillment (`pst_…`); at most one ACTIVE or VOID_PENDING per fulfillment. */
export interface FulfillmentPostagesTable {
  organization_id: string;
  id: string;
  fulfillment_id: string;
  source: PostageSource;
  status: PostageStatus;
  carrier: string;
  service: string | null;
  tracking_number: string;
  tracking_url: string | null;
  charge_in_cents: ColumnType<string | null, number | string | null, number | string | null>;
  currency: string | null;
  purchase_id: string | null;
  label_available: Generated<boolean>;
  purchased_at: Date | null;
  retired_at: Date | null;
  retirement_evidence: Json<Record<string, unknown>> | null;
  created_at: Timestamp;
  /** Tries to store a native label's document so far; the worker retries at `label_next_fetch_at`. */
  label_fetch_attempts: Generated<number>;
  label_next_fetch_at: Timestamp | null;
}

/** The sandbox carrier's account of one tenant: its prepaid balance and behaviours. */
export interface SandboxCarrierAccountsTable {
  organization_id: string;
  balance_in_cents: number;
  currency: string;
  behaviours: JsonWithDefault<Record<string, string>>;
  purchase_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type SandboxLabelStatus = 'ACTIVE' | 'VOID_PENDING' | 'VOIDED' | 'VOID_REJECTED';

/** A label the sandbox carrier sold, keyed by its tracking number; one per client reference. */
export interface SandboxCarrierLabelsTable {
  organization_id: string;
  tracking_number: string;
  client_reference: string;
  service: string;
  charge_in_cents: number;
  currency: string;
  status: SandboxLabelStatus;
  void_request_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type LabelPurchaseStatus = 'PENDING' | 'PURCHASED' | 'FAILED' | 'UNCERTAIN';

/** Our side of one label purchase (`lbp_…`); `PENDING` and `UNCERTAIN` ones hold their charge. */
export interface LabelPurchasesTable {
  organization_id: string;
  id: string;
  sales_record_id: string;
  order_id: string | null;
  fulfillment_id: string | null;
  status: LabelPurchaseStatus;
  failure: 'DECLINED' | 'NOT_SENT' | 'NOT_PURCHASED' | null;
  carrier: string;
  service: string;
  charge_in_cents: number;
  currency: string;
  lines: Json<{ lineId: string; quantity: number }[]>;
  package: Json<Record<string, unknown>>;
  selection_fingerprint: string;
  classification: 'HIGH_RISK' | 'REVIEW_REQUIRED' | 'STANDARD';
  acknowledgements: JsonWithDefault<string[]>;
  override_reason: string | null;
  reason: string | null;
  tracking_number: string | null;
  created_by: string | null;
  claimed_at: Timestamp;
  settled_at: Timestamp | null;
  reconcile_attempts: Generated<number>;
  last_reconciled_at: Timestamp | null;
  reconcile_outcome: 'PURCHASED' | 'NOT_PURCHASED' | null;
  /** SHA-256 of the idempotency key the purchase was claimed under. */
  key_hash: string | null;
}

/** One row per tenant: the claim transaction's lock over its open label charges (the funding preflight). */
export interface PostageAccountsTable {
  organization_id: string;
  created_at: Timestamp;
}

export type ShipmentCancellationStatus = 'PENDING' | 'VOIDED' | 'REJECTED' | 'EXHAUSTED' | 'NOT_SENT';

/** One void attempt on one native postage (`scn_…`); at most one open per fulfillment. */
export interface ShipmentCancellationsTable {
  organization_id: string;
  id: string;
  fulfillment_id: string;
  postage_id: string;
  status: ShipmentCancellationStatus;
  reason: string | null;
  requested_by: string | null;
  requested_at: Timestamp;
  void_requested_at: Timestamp | null;
  void_request_count: Generated<number>;
  poll_attempts: Generated<number>;
  /** When the worker reads the label's status next; null once closed or exhausted. */
  next_poll_at: Timestamp | null;
  evidence: Json<Record<string, unknown>> | null;
  checks: JsonWithDefault<Record<string, unknown>[]>;
  last_checked_at: Timestamp | null;
  closed_at: Timestamp | null;
  updated_at: Timestamp;
}

/** The stored document of a purchased label, read by the labels PDF batch. */
export interface LabelArtifactsTable {
  organization_id: string;
  purchase_id: string;
  content_type: string;
  /** Lower-case hex SHA-256 of `bytes`, checked again before a batch copies its pages. */
  sha256: string;
  byte_size: number;
  bytes: Uint8Array;
  stored_at: Timestamp;
}

/** Stock a shipment took (`inm_…`): unique per fulfillment, line and kind, so never twice. */
export interface InventoryMovementsTable {
  organization_id: string;
  id: string;
  kind: 'CONSUME';
  fulfillment_id: string;
  line_id: string;
  variant_id: string;
  quantity: number;
  /** Units shipped that the variant's stock did not hold (on-hand stops at zero). */
  shortfall_quantity: Generated<number>;
  created_at: Timestamp;
}

export interface Database {
  fulfillments: FulfillmentsTable;
  fulfillment_lines: FulfillmentLinesTable;
  fulfillment_postages: FulfillmentPostagesTable;
  sandbox_carrier_accounts: SandboxCarrierAccountsTable;
  sandbox_carrier_labels: SandboxCarrierLabelsTable;
  label_purchases: LabelPurchasesTable;
  label_artifacts: LabelArtifactsTable;
  postage_accounts: PostageAccountsTable;
  shipment_cancellations: ShipmentCancellationsTable;
  inventory_movements: InventoryMovementsTable;
  organizations: OrganizationsTable;
  merchant_users: MerchantUsersTable;
  memberships: MembershipsTable;
  audit_logs: AuditLogsTable;
  outbox: OutboxTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  dev_emails: DevEmailsTable;
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyKeysTable;
  payment_webhook_events: PaymentWebhookEventsTable;
  organization_settings: OrganizationSettingsTable;
  onboarding_steps: OnboardingStepsTable;
  email_template_overrides: EmailTemplateOverridesTable;
  items: ItemsTable;
  item_components: ItemComponentsTable;
  variants: VariantsTable;
  collections: CollectionsTable;
  collection_items: CollectionItemsTable;
  pages: PagesTable;
  shipping_zones: ShippingZonesTable;
  shipping_rates: ShippingRatesTable;
  box_presets: BoxPresetsTable;
  signup_requests: SignupRequestsTable;
  reviews: ReviewsTable;
  stock_subscriptions: StockSubscriptionsTable;
  email_unsubscribe_tokens: EmailUnsubscribeTokensTable;
  customers: CustomersTable;
  customer_sign_in_challenges: CustomerSignInChallengesTable;
  customer_sessions: CustomerSessionsTable;
  customer_addresses: CustomerAddressesTable;
  order_number_counters: OrderNumberCountersTable;
  sales_records: SalesRecordsTable;
  sales_record_lines: SalesRecordLinesTable;
  orders: OrdersTable;
  order_status_tokens: OrderStatusTokensTable;
  returns: ReturnsTable;
  return_lines: ReturnLinesTable;
  action_tokens: ActionTokensTable;
  checkout_sessions: CheckoutSessionsTable;
  checkout_session_lines: CheckoutSessionLinesTable;
  inventory_reservations: InventoryReservationsTable;
  payment_attempts: PaymentAttemptsTable;
  checkout_session_tokens: CheckoutSessionTokensTable;
  abandoned_cart_unsubscribe_tokens: AbandonedCartUnsubscribeTokensTable;
  abandoned_cart_opt_outs: AbandonedCartOptOutsTable;
  booking_resources: BookingResourcesTable;
  booking_services: BookingServicesTable;
  booking_requirements: BookingRequirementsTable;
  booking_requirement_resources: BookingRequirementResourcesTable;
  booking_blackouts: BookingBlackoutsTable;
  booking_holds: BookingHoldsTable;
  booking_capacity_claims: BookingCapacityClaimsTable;
  bookings: BookingsTable;
  booking_allocations: BookingAllocationsTable;
  booking_change_requests: BookingChangeRequestsTable;
  booking_management_tokens: BookingManagementTokensTable;
  booking_email_limits: BookingEmailLimitsTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type MerchantUser = Selectable<MerchantUsersTable>;
export type Membership = Selectable<MembershipsTable>;
export type NewMembership = Insertable<MembershipsTable>;
export type MembershipUpdate = Updateable<MembershipsTable>;
export type AuditLog = Selectable<AuditLogsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type DevEmail = Selectable<DevEmailsTable>;
export type OrganizationSettings = Selectable<OrganizationSettingsTable>;
export type OnboardingStep = Selectable<OnboardingStepsTable>;
export type EmailTemplateOverride = Selectable<EmailTemplateOverridesTable>;
export type Item = Selectable<ItemsTable>;
export type Variant = Selectable<VariantsTable>;
export type Collection = Selectable<CollectionsTable>;
export type Page = Selectable<PagesTable>;
export type ShippingZone = Selectable<ShippingZonesTable>;
export type ShippingRate = Selectable<ShippingRatesTable>;
export type BoxPreset = Selectable<BoxPresetsTable>;
export type SignupRequest = Selectable<SignupRequestsTable>;
export type Review = Selectable<ReviewsTable>;
export type Customer = Selectable<CustomersTable>;
export type CustomerSignInChallenge = Selectable<CustomerSignInChallengesTable>;
export type CustomerSession = Selectable<CustomerSessionsTable>;
export type CustomerAddress = Selectable<CustomerAddressesTable>;
export type StockSubscription = Selectable<StockSubscriptionsTable>;
export type SalesRecord = Selectable<SalesRecordsTable>;
export type SalesRecordLine = Selectable<SalesRecordLinesTable>;
export type Order = Selectable<OrdersTable>;
export type Return = Selectable<ReturnsTable>;
export type ReturnLine = Selectable<ReturnLinesTable>;
export type ActionToken = Selectable<ActionTokensTable>;
export type CheckoutSession = Selectable<CheckoutSessionsTable>;
export type CheckoutSessionLine = Selectable<CheckoutSessionLinesTable>;
export type InventoryReservation = Selectable<InventoryReservationsTable>;
export type PaymentAttempt = Selectable<PaymentAttemptsTable>;
export type Fulfillment = Selectable<FulfillmentsTable>;
export type FulfillmentLine = Selectable<FulfillmentLinesTable>;
export type FulfillmentPostage = Selectable<FulfillmentPostagesTable>;
export type SandboxCarrierLabel = Selectable<SandboxCarrierLabelsTable>;
export type LabelPurchase = Selectable<LabelPurchasesTable>;
export type ShipmentCancellation = Selectable<ShipmentCancellationsTable>;

/** Every column of every table, checked against the database by a test. */
export const SCHEMA_COLUMNS = {
  fulfillments: [
    'organization_id',
    'id',
    'sales_record_id',
    'order_id',
    'status',
    'origin',
    'tracking_carrier',
    'tracking_number',
    'tracking_url',
    'note',
    'notification_decision',
    'notification_decided_at',
    'notification_decided_by',
    'notification_email_queued',
    'inventory_consumed_at',
    'shipped_at',
    'delivered_at',
    'cancelled_at',
    'cancel_reason',
    'created_by',
    'created_at',
    'updated_at',
    'version',
    'package_box_preset_id',
    'package_box_preset_revision',
    'package_length_mm',
    'package_width_mm',
    'package_height_mm',
    'package_loaded_weight_grams',
    'tracking_repaired_at',
  ],
  fulfillment_lines: [
    'organization_id',
    'fulfillment_id',
    'line_id',
    'position',
    'item_id',
    'variant_id',
    'sku',
    'name',
    'quantity',
  ],
  sandbox_carrier_accounts: [
    'organization_id',
    'balance_in_cents',
    'currency',
    'behaviours',
    'purchase_count',
    'created_at',
    'updated_at',
  ],
  sandbox_carrier_labels: [
    'organization_id',
    'tracking_number',
    'client_reference',
    'service',
    'charge_in_cents',
    'currency',
    'status',
    'void_request_count',
    'created_at',
    'updated_at',
  ],
  label_purchases: [
    'organization_id',
    'id',
    'sales_record_id',
    'order_id',
    'fulfillment_id',
    'status',
    'failure',
    'carrier',
    'service',
    'charge_in_cents',
    'currency',
    'lines',
    'package',
    'selection_fingerprint',
    'classification',
    'acknowledgements',
    'override_reason',
    'reason',
    'tracking_number',
    'created_by',
    'claimed_at',
    'settled_at',
    'reconcile_attempts',
    'last_reconciled_at',
    'reconcile_outcome',
    'key_hash',
  ],
  postage_accounts: ['organization_id', 'created_at'],
  shipment_cancellations: [
    'organization_id',
    'id',
    'fulfillment_id',
    'postage_id',
    'status',
    'reason',
    'requested_by',
    'requested_at',
    'void_requested_at',
    'void_request_count',
    'poll_attempts',
    'next_poll_at',
    'evidence',
    'checks',
    'last_checked_at',
    'closed_at',
    'updated_at',
  ],
  label_artifacts: [
    'organization_id',
    'purchase_id',
    'content_type',
    'sha256',
    'byte_size',
    'bytes',
    'stored_at',
  ],
  fulfillment_postages: [
    'organization_id',
    'id',
    'fulfillment_id',
    'source',
    'status',
    'carrier',
    'service',
    'tracking_number',
    'tracking_url',
    'charge_in_cents',
    'currency',
    'purchase_id',
    'label_available',
    'purchased_at',
    'retired_at',
    'retirement_evidence',
    'created_at',
    'label_fetch_attempts',
    'label_next_fetch_at',
  ],
  inventory_movements: [
    'organization_id',
    'id',
    'kind',
    'fulfillment_id',
    'line_id',
    'variant_id',
    'quantity',
    'shortfall_quantity',
    'created_at',
  ],
  organizations: ['id', 'slug', 'name', 'status', 'created_at'],
  merchant_users: ['id', 'subject', 'email', 'email_verified', 'name', 'created_at', 'updated_at'],
  memberships: [
    'organization_id',
    'id',
    'user_id',
    'email',
    'invited_name',
    'role',
    'permissions',
    'status',
    'created_at',
    'updated_at',
  ],
  audit_logs: [
    'organization_id',
    'id',
    'actor_user_id',
    'actor_email',
    'action',
    'target_type',
    'target_id',
    'metadata',
    'created_at',
  ],
  outbox: [
    'organization_id',
    'id',
    'kind',
    'metadata',
    'payload',
    'status',
    'attempts',
    'next_attempt_at',
    'locked_until',
    'last_error',
    'created_at',
    'delivered_at',
    'dedupe_key',
  ],
  webhook_endpoints: [
    'organization_id',
    'id',
    'url',
    'events',
    'description',
    'status',
    'disabled_reason',
    'secret_salt',
    'previous_secret_salt',
    'previous_secret_expires_at',
    'failing_since',
    'created_at',
    'updated_at',
  ],
  webhook_deliveries: [
    'organization_id',
    'id',
    'endpoint_id',
    'event_id',
    'event_type',
    'ordering_key',
    'sequence',
    'body',
    'status',
    'attempts',
    'next_attempt_at',
    'locked_until',
    'last_attempt_at',
    'response_status',
    'response_body',
    'duration_ms',
    'last_error',
    'created_at',
    'finished_at',
  ],
  dev_emails: [
    'organization_id',
    'id',
    'outbox_id',
    'to_address',
    'subject',
    'text_body',
    'html_body',
    'created_at',
  ],
  rate_limits: ['key', 'points', 'expire'],
  idempotency_keys: [
    'organization_id',
    'operation',
    'key_hash',
    'intent_hash',
    'intent_fields',
    'response_status',
    'response_body',
    'created_at',
    'expires_at',
  ],
  payment_webhook_events: ['event_id', 'type', 'intent_id', 'received_at'],
  organization_settings: [
    'organization_id',
    'business_profile',
    'checkout_settings',
    'api_settings',
    'notifications',
    'created_at',
    'updated_at',
  ],
  onboarding_steps: [
    'organization_id',
    'step_key',
    'position',
    'completed_at',
    'completed_by',
    'created_at',
    'updated_at',
  ],
  email_template_overrides: [
    'organization_id',
    'type',
    'subject',
    'heading',
    'body_text',
    'cta_label',
    'from_name',
    'reply_to',
    'updated_by',
    'created_at',
    'updated_at',
  ],
  items: [
    'organization_id',
    'id',
    'slug',
    'name',
    'description',
    'tags',
    'type',
    'status',
    'sort_order',
    'price_in_cents',
    'metafields',
    'search_text',
    'archived_at',
    'created_at',
    'updated_at',
    'shipping_weight_grams',
    'shipping_length_mm',
    'shipping_width_mm',
    'shipping_height_mm',
    'low_stock_threshold',
  ],
  item_components: ['organization_id', 'parent_item_id', 'component_item_id', 'quantity'],
  variants: [
    'organization_id',
    'id',
    'item_id',
    'sku',
    'name',
    'options',
    'price_in_cents',
    'sale_price_in_cents',
    'inventory_quantity',
    'sort_order',
    'archived_at',
    'created_at',
    'updated_at',
    'shipping_weight_grams',
    'shipping_length_mm',
    'shipping_width_mm',
    'shipping_height_mm',
  ],
  collections: [
    'organization_id',
    'id',
    'slug',
    'name',
    'description',
    'status',
    'sort_order',
    'archived_at',
    'created_at',
    'updated_at',
  ],
  collection_items: ['organization_id', 'collection_id', 'item_id', 'position', 'created_at'],
  pages: [
    'organization_id',
    'id',
    'slug',
    'title',
    'content',
    'excerpt',
    'status',
    'archived_at',
    'published_at',
    'created_at',
    'updated_at',
  ],
  shipping_zones: [
    'organization_id',
    'id',
    'name',
    'countries',
    'sort_order',
    'archived_at',
    'created_at',
    'updated_at',
  ],
  box_presets: [
    'organization_id',
    'id',
    'name',
    'inner_length_mm',
    'inner_width_mm',
    'inner_height_mm',
    'outer_length_mm',
    'outer_width_mm',
    'outer_height_mm',
    'tare_weight_grams',
    'max_load_grams',
    'sort_order',
    'revision',
    'archived_at',
    'created_at',
    'updated_at',
  ],
  shipping_rates: [
    'organization_id',
    'id',
    'zone_id',
    'name',
    'price_in_cents',
    'minimum_subtotal_in_cents',
    'estimated_delivery',
    'sort_order',
    'archived_at',
    'created_at',
    'updated_at',
  ],
  signup_requests: [
    'id',
    'email',
    'name',
    'company_name',
    'website',
    'message',
    'source_organization_id',
    'created_at',
    'updated_at',
  ],
  reviews: [
    'organization_id',
    'id',
    'item_id',
    'rating',
    'author_name',
    'author_email',
    'title',
    'body',
    'status',
    'verified_purchase',
    'moderated_by',
    'moderated_at',
    'created_at',
  ],
  stock_subscriptions: [
    'organization_id',
    'id',
    'item_id',
    'variant_id',
    'email',
    'status',
    'last_notified_at',
    'created_at',
    'updated_at',
  ],
  email_unsubscribe_tokens: [
    'token_hash',
    'organization_id',
    'subscription_type',
    'subscription_id',
    'created_at',
  ],
  customers: [
    'organization_id',
    'id',
    'email',
    'email_verified_at',
    'pending_email',
    'name',
    'phone',
    'created_at',
    'updated_at',
  ],
  customer_sign_in_challenges: [
    'organization_id',
    'id',
    'purpose',
    'email',
    'customer_id',
    'link_token_hash',
    'code_hash',
    'failed_attempts',
    'expires_at',
    'consumed_at',
    'created_at',
  ],
  customer_sessions: ['organization_id', 'id', 'customer_id', 'expires_at', 'created_at'],
  customer_addresses: [
    'organization_id',
    'id',
    'customer_id',
    'name',
    'company',
    'line1',
    'line2',
    'city',
    'state',
    'postal_code',
    'country',
    'phone',
    'is_default_shipping',
    'is_default_billing',
    'created_at',
    'updated_at',
  ],
  order_number_counters: ['organization_id', 'next_number'],
  sales_records: [
    'organization_id',
    'id',
    'source',
    'currency',
    'customer_name',
    'customer_email',
    'customer_phone',
    'subtotal_in_cents',
    'shipping_in_cents',
    'tax_in_cents',
    'discount_in_cents',
    'total_in_cents',
    'payment_status',
    'created_at',
    'updated_at',
    'tax_included',
    'fulfillment_status',
    'shipping_address',
  ],
  sales_record_lines: [
    'organization_id',
    'id',
    'sales_record_id',
    'position',
    'type',
    'item_id',
    'variant_id',
    'name',
    'quantity',
    'unit_price_in_cents',
    'total_in_cents',
    'created_at',
    'shipped_quantity',
    'allocated_quantity',
  ],
  orders: [
    'organization_id',
    'id',
    'sales_record_id',
    'order_reference',
    'order_number',
    'status',
    'fulfillment_status',
    'payment_status',
    'currency',
    'customer_name',
    'customer_email',
    'customer_phone',
    'notes',
    'item_count',
    'subtotal_in_cents',
    'shipping_in_cents',
    'tax_in_cents',
    'discount_in_cents',
    'total_in_cents',
    'created_at',
    'updated_at',
    'tax_included',
    'shipping_address',
  ],
  order_status_tokens: ['token_hash', 'organization_id', 'order_id', 'created_at'],
  returns: [
    'organization_id',
    'id',
    'order_id',
    'status',
    'customer_id',
    'customer_email',
    'channel',
    'currency',
    'refund_total_in_cents',
    'rejection_reason',
    'approved_at',
    'received_at',
    'completed_at',
    'rejected_at',
    'cancelled_at',
    'created_at',
    'updated_at',
  ],
  return_lines: [
    'organization_id',
    'return_id',
    'sales_record_line_id',
    'position',
    'quantity',
    'reason',
    'note',
  ],
  action_tokens: [
    'organization_id',
    'token_hash',
    'purpose',
    'customer_id',
    'customer_email',
    'order_id',
    'eligible_lines',
    'expires_at',
    'revoked_at',
    'consumed_at',
    'action',
    'request_hash',
    'result',
    'return_id',
    'created_at',
  ],
  checkout_sessions: [
    'organization_id',
    'id',
    'token_hash',
    'status',
    'currency',
    'email',
    'customer_name',
    'customer_phone',
    'shipping_country',
    'shipping_rate_id',
    'shipping_rate_name',
    'subtotal_in_cents',
    'shipping_in_cents',
    'tax_in_cents',
    'total_in_cents',
    'bound_at',
    'expires_at',
    'completed_at',
    'abandoned_email_queued_at',
    'order_id',
    'created_at',
    'updated_at',
    'first_bound_at',
    'hold_client_key',
    'tax_included',
    'sales_record_id',
    'shipping_address',
  ],
  checkout_session_tokens: ['token_hash', 'organization_id', 'checkout_session_id', 'created_at'],
  checkout_session_lines: [
    'organization_id',
    'id',
    'checkout_session_id',
    'position',
    'item_id',
    'variant_id',
    'quantity',
    'name',
    'unit_price_in_cents',
    'created_at',
    'type',
  ],
  inventory_reservations: [
    'organization_id',
    'id',
    'checkout_session_id',
    'variant_id',
    'quantity',
    'status',
    'created_at',
    'updated_at',
    'fulfilled_quantity',
  ],
  payment_attempts: [
    'organization_id',
    'id',
    'checkout_session_id',
    'order_id',
    'provider',
    'intent_id',
    'client_secret',
    'publishable_key',
    'account_id',
    'status',
    'amount_in_cents',
    'currency',
    'created_at',
    'updated_at',
    'provider_action',
    'provider_action_due_at',
    'provider_action_tries',
    'refund_id',
  ],
  abandoned_cart_unsubscribe_tokens: ['token_hash', 'organization_id', 'email', 'created_at'],
  abandoned_cart_opt_outs: ['organization_id', 'email', 'created_at'],
  booking_resources: [
    'organization_id',
    'id',
    'name',
    'kind',
    'capacity',
    'user_id',
    'status',
    'metafields',
    'archived_at',
    'created_at',
    'updated_at',
  ],
  booking_services: [
    'organization_id',
    'id',
    'slug',
    'name',
    'description',
    'status',
    'item_id',
    'period_mode',
    'timezone',
    'durations',
    'fixed_slots',
    'availability',
    'party_size_min',
    'party_size_max',
    'pricing',
    'checkout',
    'policies',
    'delivery',
    'agreement',
    'agreement_version',
    'sort_order',
    'metafields',
    'search_text',
    'archived_at',
    'created_at',
    'updated_at',
  ],
  booking_requirements: [
    'organization_id',
    'id',
    'service_id',
    'position',
    'name',
    'units_mode',
    'units_count',
    'selection',
    'allow_split',
    'created_at',
  ],
  booking_requirement_resources: ['organization_id', 'requirement_id', 'resource_id', 'position'],
  booking_blackouts: [
    'organization_id',
    'id',
    'resource_id',
    'starts_at',
    'ends_at',
    'reason',
    'created_at',
    'removed_at',
  ],
  booking_holds: [
    'organization_id',
    'id',
    'service_id',
    'status',
    'starts_at',
    'ends_at',
    'quantity',
    'customer_email',
    'customer_id',
    'key_hash',
    'client_key',
    'email_proven',
    'snapshot',
    'expires_at',
    'created_at',
    'updated_at',
  ],
  booking_capacity_claims: [
    'organization_id',
    'id',
    'resource_id',
    'quantity',
    'during',
    'start_minute',
    'end_minute',
    'expires_at',
    'released_at',
    'hold_id',
    'booking_id',
    'blackout_id',
    'created_at',
  ],
  bookings: [
    'organization_id',
    'id',
    'code',
    'service_id',
    'hold_id',
    'status',
    'starts_at',
    'ends_at',
    'quantity',
    'timezone',
    'customer_id',
    'customer_name',
    'customer_email',
    'customer_phone',
    'customer_note',
    'billing_address',
    'delivery',
    'snapshot',
    'currency',
    'subtotal_in_cents',
    'delivery_fee_in_cents',
    'tax_in_cents',
    'total_in_cents',
    'amount_due_now_in_cents',
    'sales_record_id',
    'payment_expires_at',
    'request_expires_at',
    'voided_at',
    'refund_required',
    'assignee_user_ids',
    'agreements',
    'history',
    'group_id',
    'client_key',
    'email_proven',
    'created_at',
    'updated_at',
  ],
  booking_allocations: [
    'organization_id',
    'booking_id',
    'requirement_id',
    'resource_id',
    'quantity',
    'selection',
    'position',
  ],
  booking_change_requests: [
    'organization_id',
    'id',
    'booking_id',
    'kind',
    'status',
    'starts_at',
    'ends_at',
    'reason',
    'actor',
    'decided_by_user_id',
    'decision_reason',
    'decided_at',
    'created_at',
    'updated_at',
  ],
  booking_management_tokens: [
    'token_hash',
    'organization_id',
    'booking_id',
    'expires_at',
    'revoked_at',
    'consumed_at',
    'consumed_action',
    'created_at',
  ],
  booking_email_limits: [
    'organization_id',
    'recipient_key',
    'window_started_at',
    'sent_in_window',
    'held_in_window',
    'held_total',
    'last_held_at',
  ],
} as const satisfies { [T in keyof Database]: readonly (keyof Database[T] & string)[] };

// Compile-time completeness: every column of the interface is listed above.
type Missing<T extends keyof Database> = Exclude<keyof Database[T], (typeof SCHEMA_COLUMNS)[T][number]>;
type AssertComplete = { [T in keyof Database]: Missing<T> extends never ? true : Missing<T> };
const schemaIsComplete: { [T in keyof Database]: true } = null as unknown as AssertComplete;
void schemaIsComplete;
