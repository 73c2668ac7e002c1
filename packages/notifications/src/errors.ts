/**
 * Delivery failures as a transport reports them. Their messages are written
 * to `outbox.last_error` and to logs, so a transport builds them from codes
 * and never from the message, the recipient or the provider's free text.
 */
export class DeliveryError extends Error {
  readonly isPermanent: boolean;

  constructor(message: string, options: { isPermanent: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DeliveryError';
    this.isPermanent = options.isPermanent;
  }
}

/** The provider refused this message for good (a 5xx to the envelope or data): retrying cannot help. */
export class PermanentDeliveryError extends DeliveryError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { isPermanent: true, ...options });
    this.name = 'PermanentDeliveryError';
  }
}

/** The provider could not be reached, timed out or deferred the message (4xx): retry later. */
export class TransientDeliveryError extends DeliveryError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { isPermanent: false, ...options });
    this.name = 'TransientDeliveryError';
  }
}

export function isPermanentDeliveryError(error: unknown): boolean {
  return error instanceof DeliveryError && error.isPermanent;
}

const MAX_ERROR_LENGTH = 200;

/**
 * A short description of any failure that is safe to store and log. Errors
 * other than `DeliveryError` may quote the message or address in their text,
 * so only their name and code are kept.
 */
export function describeDeliveryFailure(error: unknown): string {
  let description: string;
  if (error instanceof DeliveryError) {
    description = error.message;
  } else if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    description = typeof code === 'string' || typeof code === 'number' ? `${error.name} ${code}` : error.name;
  } else {
    description = 'non-error thrown';
  }
  return description.length > MAX_ERROR_LENGTH
    ? `${description.slice(0, MAX_ERROR_LENGTH - 1)}…`
    : description;
}
