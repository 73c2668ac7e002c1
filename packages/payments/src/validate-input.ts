import { AppError } from '@commerce/core';
import type {
  CancelPaymentIntentOptions,
  CreatePaymentIntentInput,
  RefundPaymentOptions,
} from './provider.ts';

/**
 * The checks a processor makes before it creates an intent. They fail as the
 * processor's refusal would (PROVIDER_ERROR), since a caller that reaches them
 * has a bug, not a client with bad input.
 */
export function validateIntentInput(input: CreatePaymentIntentInput): void {
  const problems: string[] = [];
  if (!Number.isSafeInteger(input.amountInCents) || input.amountInCents <= 0)
    problems.push('amount must be a positive integer');
  if (!/^[A-Z]{3}$/.test(input.currency)) problems.push('currency must be an upper-case ISO 4217 code');
  if (input.idempotencyKey.length === 0 || input.idempotencyKey.length > 255)
    problems.push('idempotency key must have 1 to 255 characters');
  if (problems.length > 0) {
    throw new AppError('PROVIDER_ERROR', `The payment provider refused the request: ${problems.join('; ')}`);
  }
}

/** A processor's intent id: it becomes part of a request path, so nothing but letters, digits and `_`. */
const INTENT_ID = /^[A-Za-z0-9_]{1,255}$/;

/** The checks before a cancellation or a refund, failing as createPaymentIntent's do (a caller bug, not client input). */
export function validateIntentActionInput(
  intentId: string,
  options: CancelPaymentIntentOptions | RefundPaymentOptions,
): void {
  const problems: string[] = [];
  if (!INTENT_ID.test(intentId)) problems.push('intent id must be 1 to 255 letters, digits or underscores');
  if (options.idempotencyKey.length === 0 || options.idempotencyKey.length > 255)
    problems.push('idempotency key must have 1 to 255 characters');
  if (problems.length > 0) {
    throw new AppError('PROVIDER_ERROR', `The payment provider refused the request: ${problems.join('; ')}`);
  }
}
