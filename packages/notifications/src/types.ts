/** A rendered message, as stored in the outbox payload and handed to a transport. */
export interface EmailMessage {
  from?: string;
  to: string;
  subject: string;
  /** The plain-text part; it carries the link or code. */
  text: string;
  html?: string;
  replyTo?: string;
}

export interface DeliveryContext {
  organizationId: string;
  outboxId: string;
  /** From the row's metadata, so a transport can log what was sent without reading the body. */
  templateType?: string;
}

/**
 * A provider that sends one message. It resolves once the provider accepted
 * it and throws otherwise; throw `PermanentDeliveryError` when a retry cannot
 * succeed, anything else is retried.
 */
export interface EmailTransport {
  /** Names the provider in logs: `smtp`, `dev`. */
  readonly kind?: string;
  send(message: EmailMessage, context: DeliveryContext): Promise<void>;
  /** Releases pooled connections at shutdown. */
  close?(): Promise<void>;
}

/** The part of pino's logger this package uses, so tests can pass a recorder. */
export interface Logger {
  info(obj: Record<string, unknown>, msg?: string): void;
  warn(obj: Record<string, unknown>, msg?: string): void;
  error(obj: Record<string, unknown>, msg?: string): void;
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** The recipient's domain: the part of an address that may be logged and kept after delivery. */
export function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at === -1 ? '' : address.slice(at + 1).toLowerCase();
}
