import type { AppRouter } from '@commerce/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useRouteContext } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { useEffect, useRef, useState } from 'react';
import { CountrySelect, countryName } from '../countries.tsx';
import { t, useText } from '../i18n/index.ts';
import { repriceCheckoutSessionInputSchema } from '../lib/checkout-schemas.ts';
import { formatDateTime, formatMoney, formatWait } from '../lib/format.ts';
import { fieldErrors } from '../lib/schemas.ts';
import { signedInStore } from '../lib/tenant.ts';
import { type ApiFailure, readFailure, useTRPC } from '../lib/trpc.ts';
import { Button, FailureNotice, Field, Form, Loading, Notice, Page, RadioGroupField } from '../ui.tsx';
import {
  CheckoutLayout,
  type CheckoutSession,
  type EditTarget,
  Recap,
  shortageText,
} from './checkout-parts.tsx';
import { PaymentStep } from './payment-step.tsx';

/** A checkout link that does not open a session: unknown, expired, or another store's (one neutral 404). */
export function CheckoutLinkNotFound() {
  const t = useText();
  return (
    <Page title={t('checkout.linkBrokenTitle')}>
      <p>{t('checkout.linkBrokenText')}</p>
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
  // A recap's "Change" on the payment step of a free order: the details step, opened at that part.
  const [editing, setEditing] = useState<EditTarget | undefined>();
  const t = useText();

  if (token === '') return <CheckoutLinkNotFound />;
  if (session.isPending) return <Loading what={t('checkout.loading')} />;
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
        <Page title={t('checkout.cancelledTitle')}>
          <p>{t('checkout.cancelledText')}</p>
        </Page>
      );
    case 'EXPIRED':
      return <CheckoutLinkNotFound />;
    case 'OPEN':
      return (
        <DetailsStep
          key={editing ?? 'open'}
          token={token}
          session={current}
          reopen={editing}
          onBound={() => setEditing(undefined)}
        />
      );
    default:
      if (editing && current.status === 'BOUND')
        return (
          <DetailsStep
            key={editing}
            token={token}
            session={current}
            reopen={editing}
            onBound={() => setEditing(undefined)}
          />
        );
      return (
        <PaymentStep
          token={token}
          session={current}
          // A paid order's payment step places the order (payment-session): its details are fixed from
          // then on, so only a free order, placed by a button, can go back to change them.
          onEdit={current.status === 'BOUND' && current.totalInCents === 0 ? setEditing : undefined}
        />
      );
  }
}

/**
 * A 409 STALE_STATE (prices changed), INSUFFICIENT_STOCK (naming the short lines) or the cap on the
 * units one shopper may hold (a 429 whose `details.reason` is `HELD_UNITS_CAP`, not a request-rate
 * limit: "too many attempts" would send the shopper to wait for nothing), as a sentence.
 */
function bindFailureText(failure: ApiFailure, session: CheckoutSession): string | undefined {
  if (failure.code === 'STALE_STATE') return t('checkout.pricesChanged');
  if (failure.code === 'INSUFFICIENT_STOCK') return shortageText(failure, session.lines);
  const details = failure.details as
    | { reason?: string; maxUnits?: number; requestedUnits?: number }
    | undefined;
  if (failure.code === 'RATE_LIMIT_EXCEEDED' && details?.reason === 'HELD_UNITS_CAP') {
    const max = details.maxUnits ?? 0;
    const requested = details.requestedUnits ?? 0;
    const cart = session.lines.map((line) => t('checkout.quantityOf', line.quantity, line.name)).join(', ');
    if (requested > max) return t('checkout.heldCapCart', max, requested, cart);
    return t(
      'checkout.heldCapOthers',
      max,
      failure.retryAfterSeconds === undefined ? undefined : formatWait(failure.retryAfterSeconds),
    );
  }
  return undefined;
}

/** Where each part's "Change" puts the focus: the part's first field. */
const FIRST_FIELD: Record<'contact' | 'address', string> = {
  contact: 'email',
  address: 'shippingAddress.line1',
};

type SavedAddress = Outputs['customer']['account']['listAddresses']['data'][number];
type Outputs = inferRouterOutputs<AppRouter>;

/**
 * The signed-in shopper's address book (default shipping address first), when this browser signed
 * in to this store: the page keeps a note of which store that is (lib/tenant.ts), so a signed-out
 * shopper's checkout asks nothing of the customer routes. A 401 (the session ended) is no address.
 */
function useSavedAddresses(): SavedAddress[] {
  const trpc = useTRPC();
  const { slug } = useRouteContext({ from: '__root__' });
  const signedIn = slug !== undefined && signedInStore.get() === slug;
  const addresses = useQuery({
    ...trpc.customer.account.listAddresses.queryOptions({ limit: 100 }),
    enabled: signedIn,
  });
  if (!signedIn || !addresses.data) return [];
  return [...addresses.data.data].sort((a, b) => Number(b.isDefaultShipping) - Number(a.isDefaultShipping));
}

const NEW_ADDRESS = 'new';

/** A saved address as the choice reads it. */
const savedAddressLabel = (address: SavedAddress) =>
  [address.name, address.line1, address.line2, address.city, address.postalCode, countryName(address.country)]
    .filter(Boolean)
    .join(', ');

/** The saved address the session already ships to, if it is one of them. */
function matchingAddress(
  saved: SavedAddress[],
  address: CheckoutSession['shippingAddress'],
): SavedAddress | undefined {
  if (!address) return undefined;
  return saved.find(
    (candidate) =>
      candidate.line1 === address.line1 &&
      (candidate.line2 ?? null) === (address.line2 ?? null) &&
      candidate.city === address.city &&
      (candidate.postalCode ?? '') === address.postalCode &&
      candidate.country === address.country,
  );
}

/**
 * The customer's details and the shipping choice (an `OPEN` session, or a `BOUND` one being
 * changed: a reprice returns it to `OPEN` and releases its stock until it is bound again). Each save
 * is a reprice, so the totals shown are always the server's. Two steps, as Shopify's checkout has
 * them: the details (contact and address), then, once saved, a recap of them (each line with its
 * "Change") above the shipping method and "Continue to payment".
 */
function DetailsStep({
  token,
  session,
  reopen,
  onBound,
}: {
  token: string;
  session: CheckoutSession;
  /** Opened from a recap's "Change" on the payment step: that part of the details. */
  reopen?: EditTarget | undefined;
  onBound: () => void;
}) {
  const trpc = useTRPC();
  const t = useText();
  const queryClient = useQueryClient();
  const queryKey = trpc.public.checkout.get.queryKey({ token });
  const reprice = useMutation(trpc.public.checkout.reprice.mutationOptions());
  // The rate's reprices are their own mutation: choosing a rate never makes the details' button pending.
  const repriceRate = useMutation(trpc.public.checkout.reprice.mutationOptions());
  const bind = useMutation(trpc.public.checkout.bind.mutationOptions());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [rateId, setRateId] = useState<string | null>(session.shippingRateId);
  const saved = session.email !== null && session.customerName !== null;
  const needsCountry = session.shippingRequired;
  const address = session.shippingAddress;
  const detailsDone = saved && (!needsCountry || address !== null);
  // Which step shows: the details form, or (once they are saved) the recap and the shipping method.
  const [step, setStep] = useState<'details' | 'next'>(
    reopen === 'contact' || reopen === 'address' || !detailsDone ? 'details' : 'next',
  );
  // Where the focus goes when a step opens: the part's first field, or the next step (see below).
  const [focusTarget, setFocusTarget] = useState<string | undefined>(
    reopen === 'contact' || reopen === 'address'
      ? FIRST_FIELD[reopen]
      : reopen === 'method'
        ? 'next'
        : undefined,
  );
  const shippingRef = useRef<HTMLFieldSetElement>(null);
  const continueRef = useRef<HTMLDivElement>(null);
  // A rate chosen while another is being saved: sent next, so the last choice is the one kept.
  const wantedRate = useRef<string | undefined>(undefined);
  const savingDetails = useRef(false);
  const savingRate = useRef(false);
  const binding = useRef(false);

  // Saved addresses (signed in): the default is offered first and fills the form when nothing is given yet.
  const savedAddresses = useSavedAddresses();
  const [chosenAddress, setChosenAddress] = useState<string | undefined>();
  const [fillKey, setFillKey] = useState(0);
  const [filled, setFilled] = useState<SavedAddress | undefined>();
  const choice =
    chosenAddress ??
    (address ? matchingAddress(savedAddresses, address)?.id : savedAddresses[0]?.id) ??
    NEW_ADDRESS;
  const fillFrom = chosenAddress === undefined && !address ? savedAddresses[0] : filled;
  const chooseAddress = (id: string) => {
    setChosenAddress(id);
    setFilled(savedAddresses.find((candidate) => candidate.id === id));
    // The form's fields take the chosen address (or empty ones for a new address): new defaults.
    setFillKey((count) => count + 1);
    setErrors({});
  };
  const fieldDefault = (name: 'line1' | 'line2' | 'city' | 'postalCode' | 'state' | 'country'): string => {
    if (chosenAddress === NEW_ADDRESS) return name === 'country' ? (session.shippingCountry ?? '') : '';
    if (fillFrom) return fillFrom[name] ?? '';
    if (name === 'country') return address?.country ?? session.shippingCountry ?? '';
    return address?.[name] ?? '';
  };

  const ready = saved && (!needsCountry || (address !== null && rateId !== null));

  const store = (next: CheckoutSession) => {
    queryClient.setQueryData(queryKey, next);
    setRateId(next.shippingRateId);
  };

  const change = (target: EditTarget) => {
    setFailure(undefined);
    setNotice(undefined);
    setStep(target === 'method' ? 'next' : 'details');
    if (target === 'method') return setFocusTarget('next');
    setFocusTarget(FIRST_FIELD[target]);
  };

  const saveDetails = async (data: FormData) => {
    // A press or Enter while the last save is on its way submits nothing more.
    if (savingDetails.current) return;
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
    if (!input.email) missing.email = t('field.yourEmail');
    if (!input.customerName) missing.customerName = t('field.fullName');
    if (shippingAddress && !shippingAddress.country)
      missing['shippingAddress.country'] = t('checkout.chooseShipCountry');
    if (!parsed.success || Object.keys(missing).length > 0) {
      setErrors({ ...(parsed.success ? {} : fieldErrors(parsed.error)), ...missing });
      return;
    }
    setErrors({});
    savingDetails.current = true;
    try {
      store(await reprice.mutateAsync(parsed.data));
      // The details are saved: the recap and the next step open, and the focus goes there (never
      // to the page's body, where the button pressed was).
      setStep('next');
      setFocusTarget('next');
    } catch (error) {
      const read = readFailure(error);
      if (read.issues.length > 0)
        setErrors(Object.fromEntries(read.issues.map((issue) => [issue.path, issue.message])));
      else setFailure(read);
    } finally {
      savingDetails.current = false;
    }
  };

  useEffect(() => {
    if (!focusTarget) return;
    // The step renders once the saved session reaches the page (the query's cache notifies its
    // observers a moment later): until then there is nothing to focus, and this runs again.
    let target: HTMLElement | null | undefined;
    if (focusTarget === 'next') {
      const group = shippingRef.current;
      const radio =
        group?.querySelector<HTMLInputElement>('input[type=radio]:checked') ??
        group?.querySelector<HTMLInputElement>('input[type=radio]');
      target = needsCountry ? (radio ?? group) : continueRef.current?.querySelector('button');
    } else target = document.querySelector<HTMLElement>(`[name="${focusTarget}"]`);
    if (!target) return;
    setFocusTarget(undefined);
    target.focus();
  });

  /**
   * A rate chosen (by click or the arrow keys, which move the focus and the choice together): the
   * radios are never disabled while it is saved (a disabled radio drops the focus to the page's
   * body), and choices made meanwhile are saved one after another, the last one kept.
   */
  const chooseRate = async (id: string) => {
    setRateId(id);
    setFailure(undefined);
    wantedRate.current = id;
    if (savingRate.current) return;
    savingRate.current = true;
    try {
      while (wantedRate.current !== undefined) {
        const next = wantedRate.current;
        wantedRate.current = undefined;
        try {
          const repriced = await repriceRate.mutateAsync({ token, shippingRateId: next });
          if (wantedRate.current === undefined) store(repriced);
        } catch (error) {
          if (wantedRate.current === undefined) setFailure(readFailure(error));
        }
      }
    } finally {
      savingRate.current = false;
    }
  };

  const continueToPayment = async () => {
    // Not disabled while binding (the focus would fall to the page's body if the bind is refused).
    if (binding.current) return;
    binding.current = true;
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
    } finally {
      binding.current = false;
    }
  };

  const details = (
    <Form
      validationErrors={errors}
      aria-labelledby="details-title"
      onSubmit={(event) => {
        event.preventDefault();
        void saveDetails(new FormData(event.currentTarget));
      }}
    >
      <h2 id="details-title">{t('checkout.yourDetails')}</h2>
      <Field
        name="email"
        label={t('checkout.email')}
        type="email"
        autoComplete="email"
        isRequired
        defaultValue={session.email ?? ''}
        description={t('checkout.emailDescription')}
      />
      <Field
        name="customerName"
        label={t('checkout.fullName')}
        autoComplete="name"
        isRequired
        defaultValue={session.customerName ?? ''}
      />
      <Field
        name="customerPhone"
        label={t('checkout.phone')}
        type="tel"
        autoComplete="tel"
        defaultValue={session.customerPhone ?? ''}
      />
      {needsCountry ? (
        <fieldset className="plain">
          <legend>{t('checkout.shippingAddress')}</legend>
          {savedAddresses.length > 0 ? (
            <RadioGroupField
              label={t('checkout.savedAddresses')}
              appearance="cards"
              value={choice}
              onChange={chooseAddress}
              options={[
                ...savedAddresses.map((saved) => ({
                  id: saved.id,
                  label: savedAddressLabel(saved),
                  ...(saved.isDefaultShipping ? { description: t('checkout.defaultAddress') } : {}),
                })),
                { id: NEW_ADDRESS, label: t('checkout.newAddress') },
              ]}
            />
          ) : null}
          {/* New defaults, a new set of fields: a choice made, or the saved addresses arriving after the form. */}
          <div key={`${fillKey}:${fillFrom?.id ?? ''}`} className="address-fields">
            <Field
              name="shippingAddress.line1"
              label={t('checkout.addressLine1')}
              autoComplete="address-line1"
              isRequired
              defaultValue={fieldDefault('line1')}
            />
            <Field
              name="shippingAddress.line2"
              label={t('checkout.addressLine2')}
              autoComplete="address-line2"
              defaultValue={fieldDefault('line2')}
            />
            <div className="field-row">
              <Field
                name="shippingAddress.city"
                label={t('checkout.city')}
                autoComplete="address-level2"
                isRequired
                defaultValue={fieldDefault('city')}
              />
              <Field
                name="shippingAddress.postalCode"
                label={t('checkout.postalCode')}
                autoComplete="postal-code"
                isRequired
                defaultValue={fieldDefault('postalCode')}
              />
            </div>
            <Field
              name="shippingAddress.state"
              label={t('checkout.state')}
              autoComplete="address-level1"
              defaultValue={fieldDefault('state')}
            />
            <CountrySelect
              id="shipping-country"
              name="shippingAddress.country"
              defaultValue={fieldDefault('country')}
              errors={errors}
            />
          </div>
        </fieldset>
      ) : null}
      <div className="actions">
        {/* Never disabled while saving (a disabled button drops the focus to the page's body):
            a press meanwhile is ignored by saveDetails. */}
        <Button type="submit">
          {needsCountry ? t('checkout.continueToShipping') : t('checkout.continue')}
        </Button>
        {detailsDone ? (
          <Button variant="quiet" onPress={() => change('method')}>
            {needsCountry ? t('checkout.backToMethod') : t('checkout.back')}
          </Button>
        ) : null}
      </div>
    </Form>
  );

  return (
    <Page title={t('checkout.title')}>
      <CheckoutLayout
        session={session}
        aside={<p className="muted small">{t('checkout.openUntil', formatDateTime(session.expiresAt))}</p>}
      >
        {step === 'details' ? (
          details
        ) : (
          <>
            <Recap session={session} onChange={change} method={false} />
            {needsCountry && address !== null && session.shippingCountry !== null ? (
              <fieldset className="card radio-list" ref={shippingRef} tabIndex={-1}>
                <legend>{t('checkout.shippingMethod')}</legend>
                {session.shippingOptions.length === 0 ? (
                  <p>{t('checkout.noShippingTo', countryName(session.shippingCountry))}</p>
                ) : (
                  session.shippingOptions.map((option) => (
                    <label key={option.id} className="radio">
                      <input
                        type="radio"
                        name="shippingRate"
                        value={option.id}
                        checked={rateId === option.id}
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
          </>
        )}

        {notice ? <Notice tone="error">{notice}</Notice> : null}
        <FailureNotice failure={failure} />
        {step === 'next' ? (
          <div className="actions" ref={continueRef}>
            <Button onPress={() => void continueToPayment()} isDisabled={!ready}>
              {t('checkout.continueToPayment')}
            </Button>
          </div>
        ) : null}
      </CheckoutLayout>
    </Page>
  );
}
