import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useRef, useState } from 'react';
import { t, useText } from '../i18n/index.ts';
import { Button, Loading, Notice } from '../ui.tsx';

/**
 * Stripe's Payment Element for the payment session the server created (`publishableKey`,
 * `clientSecret`, and `accountId` for a connected account): the page never creates an intent.
 * `confirmPayment` redirects only when the method needs it (`redirect: 'if_required'`), back to
 * `returnUrl`, the result page, which reads the order from the server; without a redirect the page
 * moves there itself. Loaded lazily (its own chunk), with Stripe.js fetched from js.stripe.com,
 * which the page's Content-Security-Policy allows (apps/gateway/src/hosted-app.ts).
 */
export default function StripePaymentForm({
  publishableKey,
  accountId,
  clientSecret,
  amountLabel,
  returnUrl,
  onSubmitted,
}: {
  publishableKey: string;
  accountId: string | undefined;
  clientSecret: string;
  amountLabel: string;
  returnUrl: string;
  onSubmitted: () => void;
}) {
  const mount = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ stripe: Stripe; elements: StripeElements } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const text = useText();

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    loadStripe(publishableKey, accountId ? { stripeAccount: accountId } : undefined).then(
      (loaded) => {
        if (cancelled || !mount.current) return;
        if (!loaded) {
          setError(t('payment.formNotLoaded'));
          return;
        }
        const elements = loaded.elements({ clientSecret });
        const element = elements.create('payment');
        element.mount(mount.current);
        destroy = () => element.destroy();
        setStripe({ stripe: loaded, elements });
      },
      () => setError(t('payment.formNotLoaded')),
    );
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [publishableKey, accountId, clientSecret]);

  return (
    <form
      aria-label={text('payment.cardPayment')}
      onSubmit={async (event) => {
        event.preventDefault();
        if (!stripe) return;
        setBusy(true);
        setError(undefined);
        const result = await stripe.stripe.confirmPayment({
          elements: stripe.elements,
          confirmParams: { return_url: returnUrl },
          redirect: 'if_required',
        });
        setBusy(false);
        // A card error is shown for another try; anything else is for the server to settle.
        if (result.error) setError(result.error.message ?? text('payment.didNotGoThrough'));
        else onSubmitted();
      }}
    >
      <div ref={mount} className="stripe-element" />
      {stripe ? null : error ? null : <Loading what={text('payment.form')} />}
      {error ? <Notice tone="error">{error}</Notice> : null}
      <div className="actions">
        <Button type="submit" isDisabled={!stripe || busy}>
          {busy ? text('payment.paying') : text('payment.pay', amountLabel)}
        </Button>
      </div>
    </form>
  );
}
