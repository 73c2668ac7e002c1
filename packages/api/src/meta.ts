import type { PermissionGroup } from '@commerce/auth';
import type { ErrorCode } from '@commerce/core';
import type { MembershipRole } from '@commerce/db';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { PublicCacheRule, PurgeScope } from './public-cache.ts';

/** Who may call a procedure; the builder sets it and the OpenAPI document derives security and errors from it. */
export type AuthKind = 'public' | 'tenant' | 'merchant-user' | 'merchant' | 'platform' | 'customer';

export type RateLimitName =
  | 'public-read'
  | 'public-review'
  | 'public-signup'
  | 'public-order'
  | 'public-stock-notification'
  | 'public-checkout'
  | 'public-link-token'
  | 'public-availability-search'
  | 'email-send-test';

export type ApiMeta = OpenApiMeta<{
  auth?: AuthKind;
  /** The status of a success; trpc-to-openapi has no place for it. */
  successStatus?: 200 | 201 | 204;
  /** Codes the procedure itself can answer, beyond those its builder implies. */
  errors?: ErrorCode[];
  rateLimit?: RateLimitName;
  /**
   * The route reads the `x-idempotency-key` header (the same key and body replay the first
   * answer). A route whose errors list `IDEMPOTENCY_KEY_REUSED` reads it as optional unless this
   * says `required`; the OpenAPI document declares the header on exactly these operations, and the
   * typed client generates and resends keys only for them.
   */
  idempotencyKey?: 'optional' | 'required';
  permission?: PermissionGroup;
  roles?: MembershipRole[];
  /**
   * The route answers a file (the procedure returns a `Download`), served by
   * REST only: over /trpc the procedure answers 404.
   */
  download?: { contentType: 'text/csv' | 'application/pdf' };
  /**
   * A public GET whose answer shared caches may keep (an ETag, `304`, a CDN's `Cache-Control`
   * and surrogate keys; see public-cache.ts). Only public catalog, collection, page and
   * booking-service reads have it.
   */
  publicCache?: PublicCacheRule;
  /** A merchant write that changes public reads: what it purges once it committed (public-cache.ts). */
  purges?: PurgeScope;
}>;
