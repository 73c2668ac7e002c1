import type { AppRouter } from '@commerce/api';
import type { inferRouterOutputs } from '@trpc/server';
import { useEffect } from 'react';
import type { ApiFailure } from '../lib/trpc.ts';
import '../checkout.css';
import { LineItemsTable, TotalsList } from '../line-items.tsx';

export type CheckoutSession = inferRouterOutputs<AppRouter>['public']['checkout']['get'];

/**
 * A new step of the same page (details → payment → result, a conversion's answer): focus moves to
 * the page's main region (the layout's `#main`, focusable), so keyboard and screen-reader users
 * start at its heading instead of on a button that is gone.
 */
export function useStepFocus(step: string): void {
  useEffect(() => {
    if (step) document.getElementById('main')?.focus();
  }, [step]);
}

/**
 * A 409 INSUFFICIENT_STOCK as a sentence naming each short line and the quantity asked for: the
 * envelope's `details.shortages[].path` is the line's place in the cart (`lines.2`). The server
 * never says how many are left, so neither does the page.
 */
export function shortageText(failure: ApiFailure, lines: CheckoutSession['lines']): string {
  const shortages =
    (failure.details as { shortages?: { path: string; requestedQuantity?: number }[] } | undefined)
      ?.shortages ?? failure.issues;
  const named = shortages
    .map((shortage) => {
      const index = /^lines\.(\d+)/.exec(shortage.path)?.[1];
      const line = index === undefined ? undefined : lines[Number(index)];
      if (!line) return undefined;
      const asked = 'requestedQuantity' in shortage ? shortage.requestedQuantity : line.quantity;
      return `${line.name} (you asked for ${asked ?? line.quantity})`;
    })
    .filter((text): text is string => text !== undefined);
  return named.length > 0
    ? `There is not enough stock of ${named.join(', ')}. Go back to the store to lower the quantity or remove it from your cart.`
    : 'Some items are no longer in stock in that quantity. Go back to the store to change your cart.';
}

/** What the server says about the session's payment: the result page shows this, never the browser's. */
export type PaymentOutcome = 'PAID' | 'FREE' | 'FAILED' | 'CANCELLED' | 'PROCESSING' | 'NOT_STARTED';

export function paymentOutcome(session: CheckoutSession): PaymentOutcome {
  if (session.paymentStatus === 'PAID') return 'PAID';
  if (session.paymentStatus === 'NOT_REQUIRED' && session.status === 'COMPLETED') return 'FREE';
  // A booking payment's session places no order: the webhook completes the session itself.
  if (session.status === 'COMPLETED') return 'PAID';
  if (session.status === 'CANCELLED' || session.paymentStatus === 'REFUNDED') return 'CANCELLED';
  if (session.status === 'PAYMENT_FAILED' || session.paymentStatus === 'FAILED') return 'FAILED';
  if (session.status === 'AWAITING_PAYMENT') return 'PROCESSING';
  return 'NOT_STARTED';
}

/** The cart as the server priced it: lines, subtotal, shipping, tax and total in the store's currency. */
export function OrderSummary({
  session,
  title = 'Order summary',
}: {
  session: CheckoutSession;
  title?: string;
}) {
  return (
    <section className="card summary" aria-labelledby="summary-title">
      <h2 id="summary-title">{title}</h2>
      {session.lines.length > 0 ? (
        <LineItemsTable
          lines={session.lines.map((line) => ({ ...line, key: `${line.itemId}:${line.variantId ?? ''}` }))}
          currency={session.currency}
        />
      ) : null}
      <TotalsList
        currency={session.currency}
        {...(session.lines.length > 0 ? { subtotalInCents: session.subtotalInCents } : {})}
        {...(session.shippingRequired
          ? { shipping: session.shippingRateId ? session.shippingInCents : ('later' as const) }
          : {})}
        taxInCents={session.taxInCents}
        taxIncluded={session.taxIncluded}
        totalInCents={session.totalInCents}
      />
    </section>
  );
}
