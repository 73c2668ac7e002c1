import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES, ERROR_TABLE, type ErrorCode, formatIssuePath, isAppError } from './errors.ts';

/** The codes and statuses of docs/errors.md, written out by hand: the table the code must match exactly. */
const CONTRACT_STATUSES: Record<string, number> = {
  VALIDATION_FAILED: 400,
  TENANT_REQUIRED: 400,
  UNAUTHENTICATED: 401,
  VERIFICATION_FAILED: 401,
  FORBIDDEN: 403,
  RESOURCE_NOT_FOUND: 404,
  IDEMPOTENCY_KEY_REUSED: 409,
  SLUG_TAKEN: 409,
  SKU_TAKEN: 409,
  DUPLICATE_REVIEW: 409,
  INVALID_STATE_TRANSITION: 409,
  STALE_STATE: 409,
  OVER_FULFILLMENT: 409,
  ORDER_NOT_FULFILLABLE: 409,
  PAID_POSTAGE_ACTIVE: 409,
  HANDOFF_BLOCKED: 409,
  OVER_RETURN: 409,
  RETURN_NOT_ELIGIBLE: 409,
  ACTION_TOKEN_CONSUMED: 409,
  CAPACITY_UNAVAILABLE: 409,
  BOOKING_SLOT_UNAVAILABLE: 409,
  AGREEMENT_REQUIRED: 409,
  INSUFFICIENT_STOCK: 409,
  LINE_FULFILLMENT_REQUIRED: 409,
  EMAIL_POLICY_REJECTED: 422,
  RATE_LIMIT_EXCEEDED: 429,
  PROVIDER_ERROR: 502,
  PROVIDER_UNAVAILABLE: 503,
  PAYLOAD_TOO_LARGE: 413,
  LAST_OWNER: 409,
  MEMBERSHIP_EXISTS: 409,
  BOX_PRESET_NAME_TAKEN: 409,
  BOX_PRESET_LIMIT_REACHED: 409,
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 409,
  TRACKING_HISTORY_AMBIGUOUS: 409,
  INSUFFICIENT_POSTAGE_FUNDS: 409,
  LABEL_NOT_PURCHASABLE: 409,
  QUOTE_FINGERPRINT_MISMATCH: 409,
  LABEL_ACKNOWLEDGEMENT_REQUIRED: 409,
  LABEL_PURCHASE_UNSETTLED: 409,
  LABEL_PURCHASE_IN_PROGRESS: 409,
  LABEL_PURCHASE_UNCERTAIN: 503,
  RECONCILE_NOT_ALLOWED: 409,
  POSTAGE_NOT_VOIDABLE: 409,
  CARRIER_CHECK_NOT_ALLOWED: 409,
  POSTAGE_NOT_RETIRABLE: 409,
  WAREHOUSE_SELECTION_REJECTED: 409,
  LABEL_BATCH_REJECTED: 409,
  INTERNAL_ERROR: 500,
  BOOKING_DELIVERY_INVALID: 400,
  BOOKING_DELIVERY_DESTINATION_INVALID: 400,
  BOOKING_DELIVERY_OUT_OF_RANGE: 400,
  BOOKING_DELIVERY_UNAVAILABLE: 503,
  WEBHOOK_SIGNATURE_INVALID: 400,
  SERVICE_UNAVAILABLE: 503,
};

describe('ERROR_TABLE', () => {
  it('maps every contract code to exactly the contract status, and holds no other code', () => {
    const actual = Object.fromEntries(
      Object.entries(ERROR_TABLE).map(([code, entry]) => [code, entry.status]),
    );
    expect(actual).toEqual(CONTRACT_STATUSES);
  });

  it('lists every code in ERROR_CODES as a stable upper-snake string with a default message', () => {
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(CONTRACT_STATUSES).sort());
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(ERROR_TABLE[code].message.length, code).toBeGreaterThan(0);
    }
  });
});

describe('AppError', () => {
  it('carries the code, the status from the table, the message and the details', () => {
    const error = new AppError('SLUG_TAKEN', 'The slug shoes is taken', { slug: 'shoes' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('AppError');
    expect(error.code).toBe('SLUG_TAKEN');
    expect(error.status).toBe(409);
    expect(error.message).toBe('The slug shoes is taken');
    expect(error.details).toEqual({ slug: 'shoes' });
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(isAppError(error)).toBe(true);
    expect(isAppError(new Error('plain'))).toBe(false);
  });

  it('falls back to the default message of its code and has no details unless given', () => {
    for (const code of ERROR_CODES) {
      const error = new AppError(code);
      expect(error.status, code).toBe(CONTRACT_STATUSES[code]);
      expect(error.message, code).toBe(ERROR_TABLE[code].message);
      expect(error.details, code).toBeUndefined();
    }
  });

  it('keeps a cause for the log without putting it in the details', () => {
    const cause = new Error('connection reset');
    const error = new AppError('PROVIDER_UNAVAILABLE', undefined, undefined, { cause });
    expect(error.cause).toBe(cause);
    expect(error.details).toBeUndefined();
  });

  it('builds VALIDATION_FAILED with details.issues', () => {
    const issues = [{ path: 'items.0.quantity', message: 'must be positive' }];
    const error = AppError.validation(issues);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(400);
    expect(error.details).toEqual({ issues });
  });

  it('builds RESOURCE_NOT_FOUND as 404', () => {
    const error = AppError.notFound('Item not found');
    expect(error.code).toBe<ErrorCode>('RESOURCE_NOT_FOUND');
    expect(error.status).toBe(404);
    expect(error.message).toBe('Item not found');
  });

  it.each([
    [0.2, 1],
    [61.5, 62],
    [1, 1],
    [30, 30],
    [0, 1],
  ])('rateLimited(%s) is a 429 with Retry-After %s positive whole seconds', (seconds, expected) => {
    const error = AppError.rateLimited(seconds);
    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(expected);
    expect(Number.isInteger(error.retryAfterSeconds)).toBe(true);
  });
});

describe('formatIssuePath', () => {
  it.each<[PropertyKey[], string]>([
    [['items', 0, 'quantity'], 'items.0.quantity'],
    [['email'], 'email'],
    [[], ''],
    [['address', 'lines', 2], 'address.lines.2'],
  ])('renders %j as %j', (path, expected) => {
    expect(formatIssuePath(path)).toBe(expected);
  });
});

describe('AppError.validation bounds', () => {
  const issues = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ path: `f${index}`, message: 'bad' }));

  it('lists up to 100 issues as they are', () => {
    expect(AppError.validation(issues(100)).details).toEqual({ issues: issues(100) });
  });

  it('lists the first 100 of more and says how many were left out', () => {
    const error = AppError.validation(issues(60_000));
    expect(error.details).toEqual({ issues: issues(100), omittedIssueCount: 59_900 });
  });
});
