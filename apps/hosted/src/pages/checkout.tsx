import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { CountrySelect, countryName } from '../countries.tsx';
import { repriceCheckoutSessionInputSchema } from '../lib/checkout-schemas.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { fieldErrors } from '../lib/schemas.ts';
import { type ApiFailure, readFailure, useTRPC } from '../lib/trpc.ts';
import { Button, FailureNotice, Field, Loading, Notice, Page } from '../ui.tsx';
import { type CheckoutSession, OrderSummary } from './checkout-parts.tsx';
import { PaymentStep } from './payment-step.tsx';

/** A checkout link that does not open a session: unknown, expired, or another store's (one neutral 404). */
export function CheckoutLinkNotFound() {
  return (
    <Page title="This checkout link does not work">
      <p>
        It may have expired (a checkout lasts a limited time, and the items it held are released), or the link
        is incomplete. Go back to the store and start the checkout again.
      </p>
    </Page>
  );
}

/**
 * `/checkout?token=c1_…` (and `/checkout/pay?token=c1_…`, the booking payment link): the session as
 * the server has it. An open session asks for the customer's details and shipping, then binds
 * (freezes the total and holds the stock); a bound one goes to payment; a finished one to the result.
 */
export function CheckoutPage({ token }: { token: string }) {
  const trpc = useTRPC();
  const session = useQuery({ ...trpc.public.checkout.get.queryOptions({ token }), enabled: token !== '' });
  const [editing, setEditing] = useState(false);

  if (token === '') return <CheckoutLinkNotFound />;
  if (session.isPending) return <Loading what="your checkout" />;
  if (session.isError) {
    const failure = readFailure(session.error);
    return failure.status === 404 ? <CheckoutLinkNotFound /> : <FailureNotice failure={failure} />;
  }
  const current = session.data;
  switch (current.status) {
    case 'COMPLETED':
      return <Navigate to="/checkout/result" search={{ token }} replace />;
    case 'CANCELLED':
      return (
        <Page title="This order was cancelled">
          <p>The store cancelled this order before it was paid. Nothing was charged.</p>
        </Page>
      );
    case 'EXPIRED':
      return <CheckoutLinkNotFound />;
    case 'OPEN':
      return <DetailsStep token={token} session={current} onBound={() => setEditing(false)} />;
    default:
      if (editing && current.status === 'BOUND')
        return <DetailsStep token={token} session={current} onBound={() => setEditing(false)} />;
      return (
        <PaymentStep
          token={token}
          session={current}
          // A paid order's payment step places the order (payment-session): its details are fixed from
          // then on, so only a free order, placed by a button, can go back to change them.
          onEdit={
            current.status === 'BOUND' && current.totalInCents === 0 ? () => setEditing(true) : undefined
          }
        />
      );
  }
}

/** A 409 STALE_STATE (prices changed), INSUFFICIENT_STOCK or a validation refusal, as a sentence. */
function bindFailureText(failure: ApiFailure, session: CheckoutSession): string | undefined {
  if (failure.code === 'STALE_STATE')
    return 'Prices changed since you opened the checkout. Check the new total and continue again.';
  if (failure.code === 'INSUFFICIENT_STOCK') {
    const names = failure.issues
      .map((issue) => /^lines\.(\d+)/.exec(issue.path)?.[1])
      .map((index) => (index === undefined ? undefined : session.lines[Number(index)]?.name))
      .filter((name): name is string => name !== undefined);
    return names.length > 0
      ? `Not enough stock left of: ${names.join(', ')}. Go back to the store to change your cart.`
      : 'Some items are no longer in stock in that quantity. Go back to the store to change your cart.';
  }
  return undefined;
}

/**
 * The customer's details and the shipping choice (an `OPEN` session, or a `BOUND` one being
 * changed: a reprice returns it to `OPEN` and releases its stock until it is bound again). Each save
 * is a reprice, so the totals shown are always the server's.
 */
function DetailsStep({
  token,
  session,
  onBound,
}: {
  token: string;
  session: CheckoutSession;
  onBound: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const queryKey = trpc.public.checkout.get.queryKey({ token });
  const reprice = useMutation(trpc.public.checkout.reprice.mutationOptions());
  const bind = useMutation(trpc.public.checkout.bind.mutationOptions());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [rateId, setRateId] = useState<string | null>(session.shippingRateId);

  const saved = session.email !== null && session.customerName !== null;
  const needsCountry = session.shippingRequired;
  const address = session.shippingAddress;
  const ready = saved && (!needsCountry || (address !== null && rateId !== null));

  const store = (next: CheckoutSession) => {
    queryClient.setQueryData(queryKey, next);
    setRateId(next.shippingRateId);
  };

  const saveDetails = async (data: FormData) => {
    setFailure(undefined);
    setNotice(undefined);
    const text = (name: string) => {
      const value = String(data.get(name) ?? '').trim();
      return value === '' ? undefined : value;
    };
    // The address's country is the shipping country; the recipient is the customer.
    const shippingAddress = needsCountry
      ? {
          name: text('customerName') ?? '',
          line1: text('shippingAddress.line1') ?? '',
          line2: text('shippingAddress.line2') ?? null,
          city: text('shippingAddress.city') ?? '',
          state: text('shippingAddress.state') ?? null,
          postalCode: text('shippingAddress.postalCode') ?? '',
          country: text('shippingAddress.country') ?? '',
        }
      : undefined;
    const input = {
      token,
      email: text('email'),
      customerName: text('customerName'),
      customerPhone: text('customerPhone') ?? null,
      ...(shippingAddress ? { shippingAddress } : {}),
    };
    const parsed = repriceCheckoutSessionInputSchema.safeParse(input);
    const missing: Record<string, string> = {};
    if (!input.email) missing.email = 'Enter your email';
    if (!input.customerName) missing.customerName = 'Enter your name';
    if (shippingAddress && !shippingAddress.country)
      missing['shippingAddress.country'] = 'Choose the country to ship to';
    if (!parsed.success || Object.keys(missing).length > 0) {
      setErrors({ ...(parsed.success ? {} : fieldErrors(parsed.error)), ...missing });
      return;
    }
    setErrors({});
    try {
      store(await reprice.mutateAsync(parsed.data));
    } catch (error) {
      const read = readFailure(error);
      if (read.issues.length > 0)
        setErrors(Object.fromEntries(read.issues.map((issue) => [issue.path, issue.message])));
      else setFailure(read);
    }
  };

  const chooseRate = async (id: string) => {
    setRateId(id);
    setFailure(undefined);
    try {
      store(await reprice.mutateAsync({ token, shippingRateId: id }));
    } catch (error) {
      setFailure(readFailure(error));
    }
  };

  const continueToPayment = async () => {
    setFailure(undefined);
    setNotice(undefined);
    try {
      const bound = await bind.mutateAsync({ token, ...(rateId ? { shippingRateId: rateId } : {}) });
      queryClient.setQueryData(queryKey, bound);
      onBound();
    } catch (error) {
      const read = readFailure(error);
      const text = bindFailureText(read, session);
      // The server saved the new prices: show them.
      if (read.code === 'STALE_STATE') await queryClient.invalidateQueries({ queryKey });
      if (text) setNotice(text);
      else setFailure(read);
    }
  };

  return (
    <Page title="Checkout">
      <div className="checkout-grid">
        <div>
          <Form
            validationErrors={errors}
            validationBehavior="aria"
            aria-labelledby="details-title"
            onSubmit={(event) => {
              event.preventDefault();
              void saveDetails(new FormData(event.currentTarget));
            }}
          >
            <h2 id="details-title">Your details</h2>
            <Field
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              isRequired
              defaultValue={session.email ?? ''}
              description="Your confirmation is sent here."
            />
            <Field
              name="customerName"
              label="Full name"
              autoComplete="name"
              isRequired
              defaultValue={session.customerName ?? ''}
            />
            <Field
              name="customerPhone"
              label="Phone (optional)"
              type="tel"
              autoComplete="tel"
              defaultValue={session.customerPhone ?? ''}
            />
            {needsCountry ? (
              <fieldset className="plain">
                <legend>Shipping address</legend>
                <Field
                  name="shippingAddress.line1"
                  label="Address"
                  autoComplete="address-line1"
                  isRequired
                  defaultValue={address?.line1 ?? ''}
                />
                <Field
                  name="shippingAddress.line2"
                  label="Apartment, suite, floor (optional)"
                  autoComplete="address-line2"
                  defaultValue={address?.line2 ?? ''}
                />
                <div className="field-row">
                  <Field
                    name="shippingAddress.city"
                    label="City"
                    autoComplete="address-level2"
                    isRequired
                    defaultValue={address?.city ?? ''}
                  />
                  <Field
                    name="shippingAddress.postalCode"
                    label="Postal code"
                    autoComplete="postal-code"
                    isRequired
                    defaultValue={address?.postalCode ?? ''}
                  />
                </div>
                <Field
                  name="shippingAddress.state"
                  label="State, province or region (optional)"
                  autoComplete="address-level1"
                  defaultValue={address?.state ?? ''}
                />
                <CountrySelect
                  id="shipping-country"
                  name="shippingAddress.country"
                  defaultValue={address?.country ?? session.shippingCountry ?? ''}
                  error={errors['shippingAddress.country']}
                />
              </fieldset>
            ) : null}
            <div className="actions">
              <Button type="submit" variant={saved ? 'secondary' : 'primary'} isDisabled={reprice.isPending}>
                {saved ? 'Update details' : needsCountry ? 'Continue to shipping' : 'Continue'}
              </Button>
            </div>
          </Form>

          {saved && needsCountry && address !== null && session.shippingCountry !== null ? (
            <fieldset className="card radio-list">
              <legend>Shipping method</legend>
              {session.shippingOptions.length === 0 ? (
                <p>This store does not ship to {countryName(session.shippingCountry)}.</p>
              ) : (
                session.shippingOptions.map((option) => (
                  <label key={option.id} className="radio">
                    <input
                      type="radio"
                      name="shippingRate"
                      value={option.id}
                      checked={rateId === option.id}
                      disabled={reprice.isPending}
                      onChange={() => void chooseRate(option.id)}
                    />
                    <span>
                      <strong>{option.name}</strong> {formatMoney(option.priceInCents, session.currency)}
                      {option.estimatedDelivery ? (
                        <span className="muted"> · {option.estimatedDelivery}</span>
                      ) : null}
                    </span>
                  </label>
                ))
              )}
            </fieldset>
          ) : null}

          {notice ? <Notice tone="error">{notice}</Notice> : null}
          <FailureNotice failure={failure} />
          {saved ? (
            <div className="actions">
              <Button onPress={() => void continueToPayment()} isDisabled={!ready || bind.isPending}>
                Continue to payment
              </Button>
            </div>
          ) : null}
        </div>
        <div>
          <OrderSummary session={session} />
          <p className="muted small">This checkout is open until {formatDateTime(session.expiresAt)}.</p>
        </div>
      </div>
    </Page>
  );
}
