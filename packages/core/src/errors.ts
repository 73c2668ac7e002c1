/**
 * The error table (docs/errors.md): one place that maps a
 * stable code to its HTTP status and default message. The gateway renders
 * every failure by looking the code up here.
 */
export const ERROR_TABLE = {
  VALIDATION_FAILED: { status: 400, message: 'The request is invalid' },
  TENANT_REQUIRED: { status: 400, message: 'The x-organization-slug header is required' },
  BOOKING_DELIVERY_INVALID: { status: 400, message: 'The delivery input is invalid' },
  BOOKING_DELIVERY_DESTINATION_INVALID: { status: 400, message: 'The delivery destination is invalid' },
  BOOKING_DELIVERY_OUT_OF_RANGE: { status: 400, message: 'The delivery destination is out of range' },
  WEBHOOK_SIGNATURE_INVALID: {
    status: 400,
    message: 'The webhook signature is missing, invalid or outside the tolerance window',
  },
  UNAUTHENTICATED: { status: 401, message: 'Authentication is required' },
  VERIFICATION_FAILED: { status: 401, message: 'Verification failed' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this' },
  RESOURCE_NOT_FOUND: { status: 404, message: 'Resource not found' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'The idempotency key was used for a different request' },
  SLUG_TAKEN: { status: 409, message: 'The slug is already taken' },
  SKU_TAKEN: { status: 409, message: 'The SKU is already used by another variant' },
  DUPLICATE_REVIEW: { status: 409, message: 'A review from this email already exists for this item' },
  INVALID_STATE_TRANSITION: { status: 409, message: 'The transition is not allowed from the current state' },
  STALE_STATE: { status: 409, message: 'The resource changed; refresh and retry' },
  OVER_FULFILLMENT: { status: 409, message: 'The fulfillment would exceed the ordered quantity' },
  ORDER_NOT_FULFILLABLE: {
    status: 409,
    message: 'The order cannot be fulfilled now (cancelled, unpaid or voided)',
  },
  PAID_POSTAGE_ACTIVE: { status: 409, message: 'The fulfillment has current paid postage' },
  HANDOFF_BLOCKED: { status: 409, message: 'The fulfillment cannot be handed off now' },
  OVER_RETURN: { status: 409, message: 'The return would exceed the quantity left to return' },
  RETURN_NOT_ELIGIBLE: { status: 409, message: 'The order cannot be returned now' },
  ACTION_TOKEN_CONSUMED: { status: 409, message: 'The action token was already used for another action' },
  CAPACITY_UNAVAILABLE: { status: 409, message: 'The requested interval has no free capacity' },
  BOOKING_SLOT_UNAVAILABLE: { status: 409, message: 'The requested interval is not offered now' },
  AGREEMENT_REQUIRED: { status: 409, message: 'The current agreement version must be accepted' },
  INSUFFICIENT_STOCK: { status: 409, message: 'Not enough stock for the requested quantities' },
  LINE_FULFILLMENT_REQUIRED: {
    status: 409,
    message: 'Fulfillment status is derived; create line fulfillments',
  },
  LAST_OWNER: { status: 409, message: 'The organization must keep at least one Owner' },
  MEMBERSHIP_EXISTS: { status: 409, message: 'The email already has a membership in this organization' },
  TRACKING_HISTORY_AMBIGUOUS: {
    status: 409,
    message: 'The order has no single shipment whose tracking can be repaired',
  },
  BOX_PRESET_NAME_TAKEN: { status: 409, message: 'Another active box preset has this name' },
  WEBHOOK_ENDPOINT_LIMIT_REACHED: {
    status: 409,
    message: 'The organization has the most webhook endpoints allowed',
  },
  BOX_PRESET_LIMIT_REACHED: {
    status: 409,
    message: 'The organization has the most active box presets allowed',
  },
  WAREHOUSE_SELECTION_REJECTED: {
    status: 409,
    message: 'A selected fulfillment is not a warehouse output',
  },
  LABEL_BATCH_REJECTED: { status: 409, message: 'A selected fulfillment has no printable label' },
  INSUFFICIENT_POSTAGE_FUNDS: {
    status: 409,
    message: 'The postage balance, less open label claims, does not cover the charge',
  },
  LABEL_NOT_PURCHASABLE: {
    status: 409,
    message: 'The label cannot be bought: address, service or package blockers',
  },
  QUOTE_FINGERPRINT_MISMATCH: {
    status: 409,
    message: 'The selection or its charge changed since the quote; quote again',
  },
  LABEL_ACKNOWLEDGEMENT_REQUIRED: {
    status: 409,
    message: 'The purchase lacks a required acknowledgement or reason',
  },
  LABEL_PURCHASE_UNSETTLED: {
    status: 409,
    message: 'A selected line is held by an unsettled label purchase',
  },
  LABEL_PURCHASE_IN_PROGRESS: { status: 409, message: 'The label purchase under this key is in flight' },
  RECONCILE_NOT_ALLOWED: { status: 409, message: 'The label purchase cannot be reconciled now' },
  POSTAGE_NOT_VOIDABLE: { status: 409, message: 'Only native postage can be voided' },
  CARRIER_CHECK_NOT_ALLOWED: { status: 409, message: 'A carrier check is not allowed now' },
  POSTAGE_NOT_RETIRABLE: {
    status: 409,
    message: 'Only current external or legacy postage can be retired by acknowledgement',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  EMAIL_POLICY_REJECTED: { status: 422, message: 'The recipient was refused by the email policy' },
  RATE_LIMIT_EXCEEDED: { status: 429, message: 'Too many requests; retry later' },
  INTERNAL_ERROR: { status: 500, message: 'An unexpected error occurred' },
  PROVIDER_ERROR: { status: 502, message: 'An upstream provider failed' },
  PROVIDER_UNAVAILABLE: { status: 503, message: 'An upstream provider could not be reached' },
  LABEL_PURCHASE_UNCERTAIN: {
    status: 503,
    message: 'The label purchase outcome is unknown; reconcile it',
  },
  BOOKING_DELIVERY_UNAVAILABLE: { status: 503, message: 'Delivery rating is unavailable' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'The service is unavailable for a moment; retry after the Retry-After seconds',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** The most issues one `VALIDATION_FAILED` answer lists (docs/errors.md). */
export const MAX_VALIDATION_ISSUES = 100;

export interface ValidationIssue {
  path: string;
  message: string;
}

export type ErrorDetails = Record<string, unknown>;

/** A failure a client can act on. Services throw it; the gateway renders it. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  /** For RATE_LIMIT_EXCEEDED and SERVICE_UNAVAILABLE: sent as the `Retry-After` header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    details?: ErrorDetails,
    options?: { retryAfterSeconds?: number; cause?: unknown },
  ) {
    super(
      message ?? ERROR_TABLE[code].message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_TABLE[code].status;
    this.details = details;
    this.retryAfterSeconds =
      options?.retryAfterSeconds === undefined
        ? undefined
        : // A limiter that cannot say when to retry still gets a valid header.
          Number.isFinite(options.retryAfterSeconds)
          ? Math.max(1, Math.ceil(options.retryAfterSeconds))
          : 1;
  }

  /**
   * At most `MAX_VALIDATION_ISSUES` issues, the first ones; beyond that `details.omittedIssueCount`
   * says how many more there were (a body of 60,000 bad fields answers a bounded error).
   */
  static validation(issues: ValidationIssue[], message = 'The request is invalid'): AppError {
    if (issues.length <= MAX_VALIDATION_ISSUES) return new AppError('VALIDATION_FAILED', message, { issues });
    return new AppError('VALIDATION_FAILED', message, {
      issues: issues.slice(0, MAX_VALIDATION_ISSUES),
      omittedIssueCount: issues.length - MAX_VALIDATION_ISSUES,
    });
  }

  static notFound(message = 'Resource not found'): AppError {
    return new AppError('RESOURCE_NOT_FOUND', message);
  }

  static rateLimited(retryAfterSeconds: number): AppError {
    return new AppError('RATE_LIMIT_EXCEEDED', undefined, undefined, { retryAfterSeconds });
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Renders a zod-style issue path (`['items', 0, 'quantity']`) as `items.0.quantity`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.map((segment) => String(segment)).join('.');
}
