import type { AppRouter } from '@commerce/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouteContext } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { type MessageKey, t, useText } from '../i18n/index.ts';
import { cardDigits, normalizeExpiry } from '../lib/card.ts';
import { sandboxPaymentConfirmInputSchema } from '../lib/checkout-schemas.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { paymentFormFor } from '../lib/payment-form.ts';
import { fieldErrors } from '../lib/schemas.ts';
import { type ApiFailure, readFailure, useTRPC } from '../lib/trpc.ts';
import { Button, FailureNotice, Field, Form, Loading, Notice, Page } from '../ui.tsx';
import { CardNumberField, ExpiryField } from './card-fields.tsx';
import {
  CheckoutLayout,
  type CheckoutSession,
  type EditTarget,
  paymentOutcome,
  Recap,
  shortageText,
  useStepFocus,
} from './checkout-parts.tsx';

type Handoff = inferRouterOutputs<AppRouter>['public']['checkout']['paymentSession'];

/** Stripe.js and its form load only when a store uses Stripe: their own chunk, fetched on demand. */
const StripePaymentForm = lazy(() => import('./stripe-payment.tsx'));

/** How long after a lost payment answer the session is read a second time. */
const SECOND_LOOK_MS = 1500;

/**
 * The payment step of a bound session: a zero total places the order (confirm-free); a positive
 * one asks the server for the payment session (one intent per session, created by the server) and
 * shows the processor's form for it. Whatever the form reports, the result page reads the outcome
 * from the server.
 */
export function PaymentStep({
  token,
  session,
  onEdit,
}: {
  token: string;
  session: CheckoutSession;
  /** A recap line's "Change" (a free order, not placed yet): the details step at that part. */
  onEdit: ((target: EditTarget) => void) | undefined;
}) {
  const free = session.totalInCents === 0;
  useStepFocus('payment');
  const t = useText();
  return (
    <Page title={free ? t('payment.placeTitle') : t('payment.title')}>
      <CheckoutLayout
        session={session}
        summaryTitle={session.lines.length > 0 ? t('checkout.orderSummary') : t('payment.amountDue')}
        aside={
          session.email ? (
            <p className="muted small">
              {t('payment.confirmationTo')} <strong>{session.email}</strong>.
            </p>
          ) : null
        }
      >
        <Recap session={session} {...(onEdit ? { onChange: onEdit } : {})} />
        {free ? <FreeOrder token={token} /> : <PaidOrder token={token} session={session} />}
      </CheckoutLayout>
    </Page>
  );
}

function useShowResult(token: string) {
  const navigate = useNavigate();
  return () => navigate({ to: '/checkout/result', search: { token } });
}

/**
 * After a call whose answer never came (offline, a reset connection): the session as the server has
 * it now, or undefined when the server cannot be reached either. The request may have been handled,
 * so the page asks before it says anything.
 */
function useReread(token: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async (): Promise<CheckoutSession | undefined> => {
    try {
      return await queryClient.fetchQuery({
        ...trpc.public.checkout.get.queryOptions({ token }),
        staleTime: 0,
      });
    } catch {
      return undefined;
    }
  };
}

function FreeOrder({ token }: { token: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirmFree = useMutation(trpc.public.checkout.confirmFree.mutationOptions());
  const showResult = useShowResult(token);
  const reread = useReread(token);
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const t = useText();
  return (
    <section aria-labelledby="free-title">
      <h2 id="free-title">{t('payment.nothingToPay')}</h2>
      <p>{t('payment.totalZero')}</p>
      <FailureNotice failure={failure} />
      <div className="actions">
        <Button
          isDisabled={confirmFree.isPending}
          onPress={async () => {
            setFailure(undefined);
            try {
              await confirmFree.mutateAsync({ token });
              await queryClient.invalidateQueries({ queryKey: trpc.public.checkout.get.queryKey({ token }) });
              await showResult();
            } catch (error) {
              const read = readFailure(error);
              // The answer was lost: the order may be placed all the same. The server knows.
              if (read.network && (await reread())?.status === 'COMPLETED') await showResult();
              else setFailure(read);
            }
          }}
        >
          {t('payment.placeOrder')}
        </Button>
      </div>
    </section>
  );
}

/** Why the payment session cannot start, in words. */
function paymentSessionText(failure: ApiFailure, session: CheckoutSession): string | undefined {
  switch (failure.code) {
    case 'INSUFFICIENT_STOCK':
      return shortageText(failure, session.lines);
    case 'INVALID_STATE_TRANSITION':
      return t('payment.noLonger');
    case 'PROVIDER_ERROR':
    case 'PROVIDER_UNAVAILABLE':
      return t('payment.processorDown');
    default:
      return undefined;
  }
}

function PaidOrder({ token, session }: { token: string; session: CheckoutSession }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const paymentSession = useMutation(trpc.public.checkout.paymentSession.mutationOptions());
  const [handoff, setHandoff] = useState<Handoff | undefined>();
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const started = useRef(false);
  const t = useText();

  const start = async () => {
    setFailure(undefined);
    try {
      const next = await paymentSession.mutateAsync({ token });
      setHandoff(next);
      // The session now awaits the payment (its details can no longer change): read it again.
      void queryClient.invalidateQueries({ queryKey: trpc.public.checkout.get.queryKey({ token }) });
      return next;
    } catch (error) {
      setFailure(readFailure(error));
      return undefined;
    }
  };

  useEffect(() => {
    // React's development double effects: one request is enough (the route is idempotent anyway).
    if (started.current) return;
    started.current = true;
    void start();
  });

  if (failure) {
    const text = paymentSessionText(failure, session);
    return (
      <>
        {text ? <Notice tone="error">{text}</Notice> : <FailureNotice failure={failure} />}
        {failure.code === 'PROVIDER_ERROR' || failure.code === 'PROVIDER_UNAVAILABLE' || !failure.code ? (
          <div className="actions">
            <Button onPress={() => void start()} isDisabled={paymentSession.isPending}>
              {t('payment.tryAgain')}
            </Button>
          </div>
        ) : null}
      </>
    );
  }
  if (!handoff) return <Loading what={t('payment.form')} />;
  return (
    <section aria-labelledby="pay-title">
      <h2 id="pay-title">{t('payment.pay', formatMoney(handoff.amountInCents, handoff.currency))}</h2>
      {/* The number the store and its emails use (the session read has it once the order is
          placed), never the internal `or1_` reference. */}
      {session.orderNumber !== null ? (
        <p className="muted small">{t('orders.orderNumber', session.orderNumber)}</p>
      ) : null}
      {session.status === 'PAYMENT_FAILED' ? <Notice tone="error">{t('payment.lastFailed')}</Notice> : null}
      {paymentFormFor(handoff.publishableKey) === 'SANDBOX' ? (
        <SandboxCardForm token={token} handoff={handoff} rearm={start} />
      ) : (
        <Suspense fallback={<Loading what={t('payment.form')} />}>
          <StripeForm token={token} handoff={handoff} />
        </Suspense>
      )}
      <p className="muted small">{t('payment.payBefore', formatDateTime(session.expiresAt))}</p>
    </section>
  );
}

function StripeForm({ token, handoff }: { token: string; handoff: Handoff }) {
  const { slug } = useRouteContext({ from: '__root__' });
  const showResult = useShowResult(token);
  // Stripe comes back here after a redirect (3-D Secure, bank pages); the result page reads the server.
  const returnUrl = `${window.location.origin}/hosted/${slug}/checkout/result?token=${encodeURIComponent(token)}`;
  return (
    <StripePaymentForm
      publishableKey={handoff.publishableKey}
      accountId={handoff.accountId}
      clientSecret={handoff.clientSecret}
      amountLabel={formatMoney(handoff.amountInCents, handoff.currency)}
      returnUrl={returnUrl}
      onSubmitted={() => void showResult()}
    />
  );
}

const DECLINES: Record<string, MessageKey> = {
  generic_decline: 'payment.declined',
  insufficient_funds: 'payment.insufficientFunds',
};

/**
 * The sandbox processor's card form (development stores): test cards only, posted to the sandbox's
 * confirm route, which settles the payment through the webhook's own path. A decline re-arms the
 * same payment (a new payment-session call) before another card is tried.
 */
function SandboxCardForm({
  token,
  handoff,
  rearm,
}: {
  token: string;
  handoff: Handoff;
  rearm: () => Promise<Handoff | undefined>;
}) {
  const trpc = useTRPC();
  const confirm = useMutation(trpc.public.sandboxPayments.confirm.mutationOptions());
  const showResult = useShowResult(token);
  const reread = useReread(token);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [declined, setDeclined] = useState<string | undefined>();
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [lost, setLost] = useState<'NOT_PAID' | 'UNKNOWN' | undefined>();
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  // The form's own guard (the state above is a render late): one confirmation at a time, so a
  // double click never sends the card twice. The button is never disabled, which would drop the
  // focus to the page's body.
  const working = useRef(false);
  const t = useText();

  /** A declined payment: the same intent re-armed for another card, then the message and a fresh form. */
  const afterDecline = async (text: string) => {
    const rearmed = await rearm();
    setDeclined(text);
    if (rearmed) setAttempt((count) => count + 1);
  };

  /**
   * The confirmation's answer never came: the charge may have gone through. The session as the
   * server has it says what happened: paid (the confirmation), declined (another card), or not
   * paid (the same form, said in words); unreachable, the page says it cannot tell and offers to
   * check again.
   */
  const resolveLost = async () => {
    if (working.current) return;
    working.current = true;
    setBusy(true);
    try {
      let current = await reread();
      if (!current) return setLost('UNKNOWN');
      let outcome = paymentOutcome(current);
      if (outcome === 'PROCESSING' || outcome === 'NOT_STARTED') {
        // The confirmation may still be running on the server: look once more before saying so.
        await new Promise((resolve) => setTimeout(resolve, SECOND_LOOK_MS));
        current = (await reread()) ?? current;
        outcome = paymentOutcome(current);
      }
      if (outcome === 'PAID' || outcome === 'FREE' || outcome === 'CANCELLED') {
        await showResult();
        return;
      }
      setLost(undefined);
      if (outcome === 'FAILED') await afterDecline(t('payment.declinedTryAnother'));
      else setLost('NOT_PAID');
    } finally {
      working.current = false;
      setBusy(false);
    }
  };

  const pay = async (data: FormData) => {
    if (working.current) return;
    setFailure(undefined);
    setLost(undefined);
    const input = {
      clientSecret: handoff.clientSecret,
      card: {
        // Digits only: the groups are the field's display, never the API's.
        number: cardDigits(String(data.get('card.number') ?? '')),
        // `1229` as `12/29`: the route takes MM/YY, shoppers type it either way.
        expiry: normalizeExpiry(String(data.get('card.expiry') ?? '')),
        cvc: String(data.get('card.cvc') ?? '').trim(),
      },
    };
    const parsed = sandboxPaymentConfirmInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    working.current = true;
    setBusy(true);
    try {
      const result = await confirm.mutateAsync(input);
      if (result.outcome === 'SUCCEEDED') {
        await showResult();
        return;
      }
      // Declined: the payment is FAILED on the server; the same intent is re-armed for another card.
      // The message and the fresh form appear together, once the payment is armed again: a card typed
      // as soon as the message shows is never wiped by the form's remount, nor sent to a failed payment.
      await afterDecline(
        t('payment.declineTryAnother', t(DECLINES[result.declineCode ?? ''] ?? 'payment.declined')),
      );
    } catch (error) {
      const read = readFailure(error);
      // The payment is no longer pending (paid, failed or cancelled meanwhile): the server knows which.
      if (read.code === 'INVALID_STATE_TRANSITION') await showResult();
      else if (read.network) {
        working.current = false;
        await resolveLost();
      } else if (read.issues.length > 0)
        setErrors(Object.fromEntries(read.issues.map((issue) => [issue.path, issue.message])));
      else setFailure(read);
    } finally {
      working.current = false;
      setBusy(false);
    }
  };

  return (
    <Form
      key={attempt}
      validationErrors={errors}
      aria-label={t('payment.cardPayment')}
      onSubmit={(event) => {
        event.preventDefault();
        void pay(new FormData(event.currentTarget));
      }}
    >
      <Notice>{t('payment.testCards')}</Notice>
      {declined ? <Notice tone="error">{declined}</Notice> : null}
      <CardNumberField autoFocus={attempt > 0} />
      <div className="field-row">
        <ExpiryField />
        <Field
          name="card.cvc"
          label={t('payment.cvc')}
          autoComplete="cc-csc"
          inputMode="numeric"
          isRequired
        />
      </div>
      <FailureNotice failure={failure} />
      {lost === 'NOT_PAID' ? (
        <Notice tone="error">{t('payment.notTaken')}</Notice>
      ) : lost === 'UNKNOWN' ? (
        <Notice tone="error">{t('payment.unreachable')}</Notice>
      ) : null}
      <div className="actions">
        {lost === 'UNKNOWN' ? (
          <Button onPress={() => void resolveLost()}>{t('payment.checkAgain')}</Button>
        ) : (
          <Button type="submit">
            {busy
              ? t('payment.paying')
              : t('payment.pay', formatMoney(handoff.amountInCents, handoff.currency))}
          </Button>
        )}
      </div>
    </Form>
  );
}
