import { z } from 'zod';

/**
 * Merchant settings: four categories of known keys (SPEC "Settings"). Each key
 * is declared once with its value schema, its description and, where it has
 * one, its default; the PATCH schema (every key optional and nullable, unknown
 * keys rejected) and the read schema (defaulted keys always present, the others
 * absent while unset) are derived from the declaration, so they cannot drift.
 */

interface SettingKey {
  /** Validates (and may normalise) a written value. */
  schema: z.ZodType;
  /** Describes the stored value, where the write schema transforms it. */
  read?: z.ZodType;
  description: string;
  default?: unknown;
}

type SettingKeys = Record<string, SettingKey>;

const key = <T extends z.ZodType>(schema: T, description: string) => ({ schema, description });

const keyWithDefault = <T extends z.ZodType>(schema: T, description: string, defaultValue: z.output<T>) => ({
  schema,
  description,
  default: defaultValue,
});

const text = (max: number) => z.string().trim().min(1).max(max);
const email = () => z.email().max(320);
/** An absolute http or https URL (settings' URLs, and what a read of them passes on). */
export const webUrl = () => z.url({ protocol: /^https?$/, hostname: z.regexes.domain }).max(2048);

const SUPPORTED_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const currencyCodeSchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'must be an uppercase ISO 4217 currency code, e.g. USD', abort: true })
  .refine((code) => SUPPORTED_CURRENCIES.has(code), 'must be an ISO 4217 currency code, e.g. USD');

/**
 * A browser origin (`scheme://host[:port]`), read back in its serialized form:
 * `https://Shop.Example.com/` is stored as `https://shop.example.com`.
 */
const originSchema = z
  .string()
  .max(300)
  .transform((value, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    const isOrigin =
      url !== undefined &&
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === '' &&
      !value.endsWith('#') &&
      !value.endsWith('?');
    if (!isOrigin) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be an origin: http or https, a host and an optional port, no path (https://shop.example.com)',
      });
      return z.NEVER;
    }
    return url!.origin;
  });

export const MAX_ALLOWED_ORIGINS = 20;

/** The longest locale tag accepted: BCP 47 asks every implementation to handle at least 35 characters. */
export const MAX_LOCALE_LENGTH = 35;

/**
 * A BCP 47 language tag the server's Intl formats numbers and dates in (`de-DE`, `fr`,
 * `pt-BR`), stored in its canonical form (`de-de` is stored as `de-DE`). Refused: what is not a
 * well-formed tag (`Intl.getCanonicalLocales` throws) and a language Intl has no data for.
 */
export const localeSchema = z
  .string()
  .trim()
  .min(2)
  .max(MAX_LOCALE_LENGTH)
  .transform((value, ctx) => {
    const canonical = canonicalLocale(value);
    if (canonical === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a supported BCP 47 language tag, e.g. en-US or de-DE',
      });
      return z.NEVER;
    }
    return canonical;
  });

/** The canonical form of a supported BCP 47 tag, else undefined (reads use it to ignore a stored bad value). */
export function canonicalLocale(value: string): string | undefined {
  if (value.length > MAX_LOCALE_LENGTH) return undefined;
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(value)[0];
  } catch {
    return undefined;
  }
  if (canonical === undefined) return undefined;
  // Lookup matching: a tag whose language Intl has no data for (`xx-YY`) finds nothing.
  const supported =
    Intl.NumberFormat.supportedLocalesOf([canonical], { localeMatcher: 'lookup' }).length === 1 &&
    Intl.DateTimeFormat.supportedLocalesOf([canonical], { localeMatcher: 'lookup' }).length === 1;
  return supported ? canonical : undefined;
}

/** The locale of a store that never set one. */
export const DEFAULT_STORE_LOCALE = 'en-US';

const addressSchema = z
  .strictObject({
    line1: text(300).describe('Street address'),
    line2: text(300).optional().describe('Apartment, suite, unit …'),
    city: text(200),
    state: text(200).optional().describe('State, province or region'),
    postalCode: text(32).optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an uppercase ISO 3166-1 alpha-2 country code, e.g. US')
      .describe('ISO 3166-1 alpha-2 country code, uppercase'),
  })
  .meta({ id: 'BusinessAddress' });

/** An optional line: trimmed, at most `max`; blank is left out. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value === '' ? undefined : value));

/**
 * Where parcels ship from (docs/fulfillment.md "Ship-from address"), with the
 * delivery-destination limits: `line1`/`line2` 300, `city`/`state` 200,
 * `postalCode` 32, `country` two letters (upper-cased); trimmed.
 */
const shipFromAddressSchema = z
  .strictObject({
    name: text(200).describe('The sender on labels'),
    company: optionalText(200).describe('At most 200'),
    line1: text(300).describe('Street address, at most 300'),
    line2: optionalText(300).describe('Apartment, suite, unit …; at most 300'),
    city: text(200),
    state: optionalText(200).describe('State, province or region; at most 200'),
    postalCode: text(32),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code, e.g. US')
      .transform((value) => value.toUpperCase())
      .describe('ISO 3166-1 alpha-2 country code; stored upper case'),
    phone: optionalText(50).describe('For the carrier; at most 50'),
  })
  .meta({ id: 'ShipFromAddress' });

const BUSINESS_PROFILE_KEYS = {
  displayName: key(text(200), 'The store name shown to customers (storefront, emails, receipts)'),
  legalName: key(text(200), 'The registered legal name of the business (invoices, policies)'),
  supportEmail: key(email(), 'Where customers reach the merchant; used as the reply-to of customer emails'),
  supportPhone: key(text(50), 'Customer support phone number, free form (at most 50 characters)'),
  websiteUrl: key(webUrl(), 'The public website of the business (absolute http or https URL)'),
  logoUrl: key(webUrl(), 'The logo shown in emails and hosted pages (absolute http or https URL)'),
  locale: {
    ...keyWithDefault(
      localeSchema,
      `The store's language and formats: a BCP 47 tag (at most ${MAX_LOCALE_LENGTH} characters) the server supports, stored canonical (\`de-de\` reads \`de-DE\`). The hosted pages use it for their language (\`<html lang>\`, the text catalogue by its language, English otherwise) and for money, numbers and dates. Default \`${DEFAULT_STORE_LOCALE}\``,
      DEFAULT_STORE_LOCALE,
    ),
    read: z.string(),
  },
  address: key(
    addressSchema,
    'The business address; an object replaced as a whole (send every line you want kept)',
  ),
  shipFromAddress: {
    schema: shipFromAddressSchema,
    read: z
      .object({
        name: z.string(),
        company: z.string().optional(),
        line1: z.string(),
        line2: z.string().optional(),
        city: z.string(),
        state: z.string().optional(),
        postalCode: z.string(),
        country: z.string(),
        phone: z.string().optional(),
      })
      .meta({ id: 'ShipFromAddressRead' }),
    description:
      'Where parcels ship from: `{ name, company?, line1, line2?, city, state?, postalCode, country, phone? }` (trimmed; `line1`/`line2` at most 300, `name`, `company`, `city`, `state` 200, `postalCode` 32, `phone` 50; `country` two letters, stored upper case); an object replaced as a whole',
  },
} satisfies SettingKeys;

const CHECKOUT_SETTINGS_KEYS = {
  currency: keyWithDefault(
    currencyCodeSchema,
    'The store currency: an uppercase ISO 4217 code known to the server (Intl.supportedValuesOf("currency")). Default `USD`',
    'USD',
  ),
  taxIncludedInPrices: keyWithDefault(
    z.boolean(),
    'Whether catalog prices already include tax. Default `false`',
    false,
  ),
  requirePhone: keyWithDefault(
    z.boolean(),
    'Whether checkout asks the customer for a phone number. Default `false`',
    false,
  ),
  termsUrl: key(webUrl(), 'Terms of service linked from checkout (absolute http or https URL)'),
  privacyPolicyUrl: key(webUrl(), 'Privacy policy linked from checkout (absolute http or https URL)'),
  refundPolicyUrl: key(webUrl(), 'Refund policy linked from checkout (absolute http or https URL)'),
  returnWindowDays: keyWithDefault(
    z.number().int().min(0).max(365),
    'Days (0 to 365) after an order is COMPLETED during which its customer may request a return; 0 turns customer returns off. Default `30`',
    30,
  ),
} satisfies SettingKeys;

const API_SETTINGS_KEYS = {
  publicOrderReadsEnabled: keyWithDefault(
    z.boolean(),
    'Whether `GET /public/orders…` answers; while false those routes answer 404. Default `false`',
    false,
  ),
  allowedOrigins: {
    schema: z
      .array(originSchema)
      .max(MAX_ALLOWED_ORIGINS)
      .transform((origins) => [...new Set(origins)]),
    read: z.array(z.string()),
    description: `Browser origins a storefront may call the public and customer API from (CORS; cookie-authenticated changes), at most ${MAX_ALLOWED_ORIGINS}; each is stored in serialized form (lowercase host, no trailing slash, no default port) and duplicates are dropped. No wildcards`,
  },
} satisfies SettingKeys;

const NOTIFICATIONS_KEYS = {
  orderNotificationEmail: key(
    email(),
    'Where merchant notifications (new orders, bookings, returns, low stock) are sent; unset means the Owners',
  ),
  bookingEmail: key(
    email(),
    'Where booking emails to the merchant (new requests and bookings, change requests, customer cancellations, refunds required) are sent; unset means `businessProfile.supportEmail`, and none is sent without either',
  ),
  notifyOnNewOrder: keyWithDefault(
    z.boolean(),
    'Email the merchant for each new order. Default `true`',
    true,
  ),
  notifyOnNewBooking: keyWithDefault(
    z.boolean(),
    'Email the merchant for each new booking. Default `true`',
    true,
  ),
  notifyOnReturnRequested: keyWithDefault(
    z.boolean(),
    'Email the merchant when a customer requests a return. Default `true`',
    true,
  ),
  notifyOnLowStock: keyWithDefault(
    z.boolean(),
    'Email the merchant when a variant’s stock falls to the threshold. Default `false`',
    false,
  ),
  lowStockThreshold: keyWithDefault(
    z.number().int().min(0).max(1_000_000),
    'The stock level (0 to 1,000,000) at or below which a low-stock email is sent. Default `5`',
    5,
  ),
} satisfies SettingKeys;

/** The four categories, in the order reads and audit metadata list them. */
export const SETTINGS_CATEGORIES = [
  'businessProfile',
  'checkoutSettings',
  'apiSettings',
  'notifications',
] as const;
export type SettingsCategory = (typeof SETTINGS_CATEGORIES)[number];

export const SETTINGS_KEYS = {
  businessProfile: BUSINESS_PROFILE_KEYS,
  checkoutSettings: CHECKOUT_SETTINGS_KEYS,
  apiSettings: API_SETTINGS_KEYS,
  notifications: NOTIFICATIONS_KEYS,
} as const satisfies Record<SettingsCategory, SettingKeys>;

type PatchShape<D extends SettingKeys> = { [K in keyof D]: z.ZodOptional<z.ZodNullable<D[K]['schema']>> };
type ReadValue<E extends SettingKey> = E extends { read: infer R extends z.ZodType } ? R : E['schema'];
type ReadShape<D extends SettingKeys> = {
  [K in keyof D]: D[K] extends { default: unknown } ? ReadValue<D[K]> : z.ZodOptional<ReadValue<D[K]>>;
};

function patchSchemaOf<D extends SettingKeys>(keys: D, id: string, description: string) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, definition] of Object.entries(keys)) {
    shape[name] = definition.schema
      .nullable()
      .optional()
      .describe(`${definition.description}. \`null\` clears the key.`);
  }
  return z.strictObject(shape as PatchShape<D>).meta({ id, description });
}

function readSchemaOf<D extends SettingKeys>(keys: D, id: string, description: string) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, definition] of Object.entries(keys)) {
    const schema = (definition.read ?? definition.schema).describe(definition.description);
    shape[name] = 'default' in definition ? schema : schema.optional();
  }
  return z.object(shape as ReadShape<D>).meta({ id, description });
}

const PATCH_NOTE = 'Keys sent are merged into the stored object; unknown keys are rejected.';
const READ_NOTE =
  'Stored keys, plus the default of each unset key that has one; an unset key without a default is absent.';

export const businessProfilePatchSchema = patchSchemaOf(
  BUSINESS_PROFILE_KEYS,
  'BusinessProfilePatch',
  `Business profile changes. ${PATCH_NOTE}`,
);
export const checkoutSettingsPatchSchema = patchSchemaOf(
  CHECKOUT_SETTINGS_KEYS,
  'CheckoutSettingsPatch',
  `Checkout settings changes. ${PATCH_NOTE}`,
);
export const apiSettingsPatchSchema = patchSchemaOf(
  API_SETTINGS_KEYS,
  'ApiSettingsPatch',
  `API settings changes. ${PATCH_NOTE}`,
);
export const notificationSettingsPatchSchema = patchSchemaOf(
  NOTIFICATIONS_KEYS,
  'NotificationSettingsPatch',
  `Merchant notification changes. ${PATCH_NOTE}`,
);

/**
 * `PATCH /merchant/settings`: any subset of the categories. Each category sent
 * is shallow-merged into the stored object; a key set to `null` is removed (it
 * then reads as its default, or is absent); keys and categories not sent stay.
 * An empty body, or empty categories, change nothing.
 */
export const updateSettingsInputSchema = z
  .strictObject({
    businessProfile: businessProfilePatchSchema.optional(),
    checkoutSettings: checkoutSettingsPatchSchema.optional(),
    apiSettings: apiSettingsPatchSchema.optional(),
    notifications: notificationSettingsPatchSchema.optional(),
  })
  .meta({ id: 'SettingsPatch' });
export type UpdateSettingsInput = z.output<typeof updateSettingsInputSchema>;

export const businessProfileSchema = readSchemaOf(
  BUSINESS_PROFILE_KEYS,
  'BusinessProfile',
  `How the business presents itself. ${READ_NOTE}`,
);
export const checkoutSettingsSchema = readSchemaOf(
  CHECKOUT_SETTINGS_KEYS,
  'CheckoutSettings',
  `Checkout preferences. ${READ_NOTE}`,
);
export const apiSettingsSchema = readSchemaOf(
  API_SETTINGS_KEYS,
  'ApiSettings',
  `Public API behaviour. ${READ_NOTE}`,
);
export const notificationSettingsSchema = readSchemaOf(
  NOTIFICATIONS_KEYS,
  'NotificationSettings',
  `Merchant notifications. ${READ_NOTE}`,
);

export const settingsSchema = z
  .object({
    businessProfile: businessProfileSchema,
    checkoutSettings: checkoutSettingsSchema,
    apiSettings: apiSettingsSchema,
    notifications: notificationSettingsSchema,
  })
  .meta({ id: 'Settings' });
export type SettingsRead = z.output<typeof settingsSchema>;

/** A category's stored object: only the keys that were set (never `null`). */
export type StoredCategory = Record<string, unknown>;

/** The default of every key that has one, per category. */
export const SETTINGS_DEFAULTS = Object.fromEntries(
  SETTINGS_CATEGORIES.map((category) => [
    category,
    Object.fromEntries(
      Object.entries(SETTINGS_KEYS[category] as SettingKeys)
        .filter(([, definition]) => 'default' in definition)
        .map(([name, definition]) => [name, definition.default]),
    ),
  ]),
) as Record<SettingsCategory, StoredCategory>;

/** The names of the known keys of each category; reads show only these. */
export const SETTINGS_KEY_NAMES = Object.fromEntries(
  SETTINGS_CATEGORIES.map((category) => [category, Object.keys(SETTINGS_KEYS[category])]),
) as Record<SettingsCategory, string[]>;
