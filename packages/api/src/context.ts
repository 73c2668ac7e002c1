import type { TenantDirectory, TenantSnapshot } from '@commerce/admin';
import type { MerchantTokenVerifier } from '@commerce/auth';
import type { DistanceProvider } from '@commerce/bookings';
import type { Clock, Config } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { CarrierProvider } from '@commerce/fulfillment';
import type { EmailTransport } from '@commerce/notifications';
import type { PaymentProvider, PaymentWebhookEvent } from '@commerce/payments';
import type { RateLimiter } from '@commerce/rate-limit';
import type { Kysely } from 'kysely';
import type { CachePurger } from './public-cache.ts';

/** What the API needs from the process: built once at start, shared by every request. */
export interface ApiDeps {
  db: Kysely<Database>;
  config: Config;
  clock: Clock;
  merchantTokens: MerchantTokenVerifier;
  rateLimiter: RateLimiter;
  /**
   * The tenants this process serves, kept in memory and forgotten on every change (the database
   * notifies each one; docs/database.md, "Tenant changes"). A directory that does not listen keeps
   * nothing and looks every tenant up.
   */
  tenants: TenantDirectory;
  /**
   * The email provider, for the few operations that must report delivery in
   * their own response (an email template's send-test). Everything else
   * leaves through the outbox.
   */
  mailer: EmailTransport;
  /** The payment processor (PAYMENT_PROVIDER): checkout's payment-session asks it for intents. */
  payments: PaymentProvider;
  /** Booking delivery distances (DISTANCE_PROVIDER): a hold with delivery asks it before its transaction. */
  distance: DistanceProvider;
  /** The shipping-label carrier (CARRIER_PROVIDER), its calls under CARRIER_TIMEOUT_MS; never called inside a transaction. */
  carrier: CarrierProvider;
  /**
   * Applies a payment event as the processor's webhook would (the gateway's `applyPaymentEvent`):
   * the sandbox processor's test-card confirmation delivers its event here. Absent where no gateway
   * runs (service tests); the confirmation then answers 404.
   */
  paymentEvents?: { apply(event: PaymentWebhookEvent): Promise<'processed' | 'duplicate' | 'ignored'> };
  /**
   * Told which public answers a merchant write changed, once it committed (docs/api.md, "HTTP
   * caching of public reads"); nothing by default.
   */
  cachePurger?: CachePurger;
  /** Where work done after a commit logs what it could not do (ids only), e.g. an order cancellation's processor call. */
  logger?: {
    info(fields: Record<string, unknown>, message: string): void;
    error(fields: Record<string, unknown>, message: string): void;
  };
}

/** What the gateway learned about one request before the procedure runs. */
export interface RequestInfo {
  requestId: string;
  headers: Headers;
  clientIp: string;
  /** Which door the call came through: the versioned REST contract or first-party /trpc. */
  surface: 'rest' | 'trpc';
  /**
   * The organization of `x-organization-slug` when the gateway already looked it up for this
   * request (to answer a cross-origin request's CORS), with its allowed origins and profile; tenant
   * procedures reuse it.
   */
  tenant?: TenantSnapshot | undefined;
}

/** Facts a procedure learns that the gateway logs (never secrets or customer data). */
export interface RequestObservations {
  /** The request's tenant, with the origins its settings allow and its public profile. */
  tenant?: TenantSnapshot;
  userId?: string;
  /** The signed-in customer's id (never their email). */
  customerId?: string;
  /**
   * The object a cacheable public answer is about when the answer does not name it (a collection's
   * items: the collection), for its surrogate keys (public-cache.ts).
   */
  cacheSubjectId?: string;
}

/** The signed-in customer of a `customerProcedure` (`ctx.customer`). */
export interface CustomerIdentity {
  id: string;
  /** The verified email: the customer's identity for order history; never logged. */
  email: string;
  organizationId: string;
  /** The session's id (the SHA-256 of its token), for logout. */
  sessionId: string;
}

/** Headers a procedure adds to its response (Location, Retry-After, Set-Cookie …), kept cheap to create. */
export class ResponseHeaders {
  readonly entries: [name: string, value: string][] = [];

  set(name: string, value: string): void {
    const lower = name.toLowerCase();
    const kept = this.entries.filter(([existing]) => existing.toLowerCase() !== lower);
    this.entries.length = 0;
    this.entries.push(...kept, [name, value]);
  }

  append(name: string, value: string): void {
    this.entries.push([name, value]);
  }
}

/**
 * The context of one procedure call. tRPC copies it at every middleware, so
 * it keeps few top-level keys: what procedures use on every call (`db`,
 * `clock`, `config`) and two groups for the rest.
 */
export interface ApiContext {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  services: Pick<
    ApiDeps,
    | 'merchantTokens'
    | 'rateLimiter'
    | 'tenants'
    | 'mailer'
    | 'payments'
    | 'distance'
    | 'carrier'
    | 'logger'
    | 'paymentEvents'
    | 'cachePurger'
  >;
  request: RequestInfo;
  resHeaders: ResponseHeaders;
  observed: RequestObservations;
}

export function createApiContext(
  deps: ApiDeps,
  request: RequestInfo,
  observed: RequestObservations = {},
): ApiContext {
  return {
    db: deps.db,
    clock: deps.clock,
    config: deps.config,
    services: deps,
    request,
    resHeaders: new ResponseHeaders(),
    observed,
  };
}
