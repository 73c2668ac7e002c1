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
}

/** What the development email transport "sent" (CONTRACT.md section 8). */
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

export interface StockSubscriptionsTable {
  organization_id: string;
  id: string;
  item_id: string;
  variant_id: string | null;
  email: string;
  status: Generated<'ACTIVE' | 'UNSUBSCRIBED'>;
  /** SHA-256 of the unsubscribe link's token. */
  unsubscribe_token_hash: string;
  last_notified_at: Date | null;
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

export interface Database {
  organizations: OrganizationsTable;
  merchant_users: MerchantUsersTable;
  memberships: MembershipsTable;
  audit_logs: AuditLogsTable;
  outbox: OutboxTable;
  dev_emails: DevEmailsTable;
  rate_limits: RateLimitsTable;
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
  signup_requests: SignupRequestsTable;
  reviews: ReviewsTable;
  stock_subscriptions: StockSubscriptionsTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type MerchantUser = Selectable<MerchantUsersTable>;
export type Membership = Selectable<MembershipsTable>;
export type NewMembership = Insertable<MembershipsTable>;
export type MembershipUpdate = Updateable<MembershipsTable>;
export type AuditLog = Selectable<AuditLogsTable>;
export type OutboxRow = Selectable<OutboxTable>;
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
export type SignupRequest = Selectable<SignupRequestsTable>;
export type Review = Selectable<ReviewsTable>;
export type StockSubscription = Selectable<StockSubscriptionsTable>;

/** Every column of every table, checked against the database by a test. */
export const SCHEMA_COLUMNS = {
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
    'unsubscribe_token_hash',
    'last_notified_at',
    'created_at',
    'updated_at',
  ],
} as const satisfies { [T in keyof Database]: readonly (keyof Database[T] & string)[] };

// Compile-time completeness: every column of the interface is listed above.
type Missing<T extends keyof Database> = Exclude<keyof Database[T], (typeof SCHEMA_COLUMNS)[T][number]>;
type AssertComplete = { [T in keyof Database]: Missing<T> extends never ? true : Missing<T> };
const schemaIsComplete: { [T in keyof Database]: true } = null as unknown as AssertComplete;
void schemaIsComplete;
