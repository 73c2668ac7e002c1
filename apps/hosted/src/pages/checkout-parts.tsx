import type { AppRouter } from '@commerce/api';
import type { inferRouterOutputs } from '@trpc/server';
import { type ReactNode, useEffect, useState } from 'react';
import { countryName } from '../countries.tsx';
import { t, useText } from '../i18n/index.ts';
import { formatMoney } from '../lib/format.ts';
import type { ApiFailure } from '../lib/trpc.ts';
import '../checkout.css';
import { SummaryLines, TotalsList } from '../line-items.tsx';
import { Button } from '../ui.tsx';

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
      return t('checkout.shortLine', line.name, asked ?? line.quantity);
    })
    .filter((text): text is string => text !== undefined);
  return named.length > 0 ? t('checkout.notEnoughStock', named.join(', ')) : t('checkout.outOfStock');
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
export function OrderSummary({ session, title }: { session: CheckoutSession; title?: string }) {
  const t = useText();
  return (
    <section className="card summary" aria-labelledby="summary-title">
      <h2 id="summary-title">{title ?? t('checkout.orderSummary')}</h2>
      {session.lines.length > 0 ? (
        <SummaryLines
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

const PHONE = '(max-width: 47.99rem)';

/**
 * Whether the page is phone width (under 768 px), following the window as it is resized: the
 * summary's bar exists only there, so on a wider page no hidden copy of the total is in the page.
 */
function usePhoneWidth(): boolean {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE).matches);
  useEffect(() => {
    const query = window.matchMedia(PHONE);
    const update = () => setPhone(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return phone;
}

/**
 * A checkout page's two columns, as Shopify's checkout has them: the steps, and the order summary
 * in a right column that stays in view (from 768 px). On a phone the summary is folded into a bar
 * at the top ("Show order summary" and the total, a disclosure button), closed at first, so the
 * form comes first; the summary's markup is the same at every width, only shown or not.
 */
export function CheckoutLayout({
  session,
  summaryTitle,
  aside,
  children,
}: {
  session: CheckoutSession;
  summaryTitle?: string;
  /** Under the summary (the link's deadline, where the confirmation goes). */
  aside?: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const phone = usePhoneWidth();
  const t = useText();
  return (
    <>
      {phone ? (
        <button
          type="button"
          className="summary-toggle"
          aria-expanded={open}
          aria-controls="checkout-summary"
          onClick={() => setOpen((value) => !value)}
        >
          <span className="summary-toggle-label">
            {open ? t('checkout.hideSummary') : t('checkout.showSummary')}
            <span className="summary-toggle-chevron" aria-hidden="true" />
          </span>
          <strong>{formatMoney(session.totalInCents, session.currency)}</strong>
        </button>
      ) : null}
      <div className="checkout-grid">
        <div id="checkout-summary" className="checkout-aside" data-open={!phone || open}>
          <OrderSummary session={session} {...(summaryTitle ? { title: summaryTitle } : {})} />
          {aside}
        </div>
        <div className="checkout-main">{children}</div>
      </div>
    </>
  );
}

/** Which part of the details a recap's "Change" reopens. */
export type EditTarget = 'contact' | 'address' | 'method';

/** An address on one line, as the recap shows it. */
export function addressLine(address: NonNullable<CheckoutSession['shippingAddress']>): string {
  return [
    address.line1,
    address.line2,
    [address.city, address.state, address.postalCode].filter(Boolean).join(' '),
    countryName(address.country),
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * What the shopper gave so far (Contact, Ship to, Method), as Shopify's checkout recalls it above
 * each later step, each with a "Change" that reopens that part with its values kept. Without
 * `onChange` (an order already placed) the lines are shown only.
 */
export function Recap({
  session,
  onChange,
  method = true,
}: {
  session: CheckoutSession;
  onChange?: (target: EditTarget) => void;
  /** Show the method line (the payment step); the method step shows its own choice instead. */
  method?: boolean;
}) {
  const rate = session.shippingOptions.find((option) => option.id === session.shippingRateId);
  const t = useText();
  const rows: { target: EditTarget; label: string; change: string; value: ReactNode }[] = [];
  if (session.email)
    rows.push({
      target: 'contact',
      label: t('recap.contact'),
      change: t('recap.changeContact'),
      value: [session.email, session.customerPhone].filter(Boolean).join(' · '),
    });
  if (session.shippingAddress)
    rows.push({
      target: 'address',
      label: t('recap.shipTo'),
      change: t('recap.changeAddress'),
      value: `${session.shippingAddress.name}, ${addressLine(session.shippingAddress)}`,
    });
  if (method && rate)
    rows.push({
      target: 'method',
      label: t('recap.method'),
      change: t('recap.changeMethod'),
      value: `${rate.name} · ${formatMoney(rate.priceInCents, session.currency)}`,
    });
  if (rows.length === 0) return null;
  return (
    <section className="card recap" aria-label={t('recap.label')}>
      <dl>
        {rows.map((row) => (
          <div key={row.target} className="recap-row">
            <dt>{row.label}</dt>
            <dd className="recap-value">{row.value}</dd>
            {onChange ? (
              <dd className="recap-change">
                <Button variant="quiet" aria-label={row.change} onPress={() => onChange(row.target)}>
                  {t('recap.change')}
                </Button>
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
    </section>
  );
}
