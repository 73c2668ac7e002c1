import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { CountrySelect, countryName } from '../countries.tsx';
import { useText } from '../i18n/index.ts';
import { createAddressInputSchema, fieldErrors, updateAddressInputSchema } from '../lib/schemas.ts';
import { type ApiFailure, readFailure, useTRPC } from '../lib/trpc.ts';
import { RequireSession } from '../session.tsx';
import { Button, FailureNotice, Field, Form, Loading, Notice, Page } from '../ui.tsx';
import type { Outputs } from './order-view.tsx';

type Address = Outputs['customer']['account']['listAddresses']['data'][number];

function CheckboxField({
  name,
  label,
  defaultSelected,
}: {
  name: string;
  label: string;
  defaultSelected: boolean;
}) {
  return (
    <Checkbox name={name} value="true" defaultSelected={defaultSelected} className="checkbox">
      {({ isSelected }) => (
        <>
          <span className="box" aria-hidden="true">
            {isSelected ? '✓' : ''}
          </span>
          {label}
        </>
      )}
    </Checkbox>
  );
}

/** The form's fields as the router's input: empty optional lines clear (`null`), flags are booleans. */
function readAddress(form: HTMLFormElement) {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  const optional = (name: string) => text(name) || null;
  return {
    name: optional('name'),
    company: optional('company'),
    line1: text('line1'),
    line2: optional('line2'),
    city: text('city'),
    state: optional('state'),
    postalCode: optional('postalCode'),
    country: text('country'),
    phone: optional('phone'),
    isDefaultShipping: data.get('isDefaultShipping') === 'true',
    isDefaultBilling: data.get('isDefaultBilling') === 'true',
  };
}

function AddressForm({ address, onDone }: { address?: Address; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.customer.account.createAddress.mutationOptions());
  const update = useMutation(trpc.customer.account.updateAddress.mutationOptions());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const t = useText();
  const title = address ? t('addresses.edit') : t('addresses.new');
  return (
    <Form
      aria-label={title}
      className="card"
      validationErrors={errors}
      onSubmit={async (event) => {
        event.preventDefault();
        setFailure(undefined);
        const fields = readAddress(event.currentTarget);
        const parsed = address
          ? updateAddressInputSchema.safeParse({ id: address.id, ...fields })
          : createAddressInputSchema.safeParse(fields);
        if (!parsed.success) return setErrors(fieldErrors(parsed.error));
        setErrors({});
        try {
          if (address)
            await update.mutateAsync(updateAddressInputSchema.parse({ id: address.id, ...fields }));
          else await create.mutateAsync(createAddressInputSchema.parse(fields));
          await queryClient.invalidateQueries({ queryKey: trpc.customer.account.listAddresses.queryKey() });
          onDone();
        } catch (error) {
          const read = readFailure(error);
          if (read.issues.length > 0)
            setErrors(Object.fromEntries(read.issues.map((issue) => [issue.path, issue.message])));
          else setFailure(read);
        }
      }}
    >
      <h2>{title}</h2>
      <Field
        name="name"
        label={t('addresses.recipient')}
        autoComplete="name"
        defaultValue={address?.name ?? ''}
        maxLength={200}
      />
      <Field
        name="company"
        label={t('addresses.company')}
        autoComplete="organization"
        defaultValue={address?.company ?? ''}
        maxLength={200}
      />
      <Field
        name="line1"
        label={t('addresses.line1')}
        autoComplete="address-line1"
        isRequired
        defaultValue={address?.line1 ?? ''}
        maxLength={300}
      />
      <Field
        name="line2"
        label={t('addresses.line2')}
        autoComplete="address-line2"
        defaultValue={address?.line2 ?? ''}
        maxLength={300}
      />
      <Field
        name="city"
        label={t('addresses.city')}
        autoComplete="address-level2"
        isRequired
        defaultValue={address?.city ?? ''}
        maxLength={200}
      />
      <Field
        name="state"
        label={t('addresses.state')}
        autoComplete="address-level1"
        defaultValue={address?.state ?? ''}
        maxLength={200}
      />
      <Field
        name="postalCode"
        label={t('addresses.postalCode')}
        autoComplete="postal-code"
        defaultValue={address?.postalCode ?? ''}
        maxLength={32}
      />
      <CountrySelect
        id={address ? `country-${address.id}` : 'country-new'}
        name="country"
        defaultValue={address?.country ?? ''}
        errors={errors}
      />
      <Field
        name="phone"
        label={t('addresses.phone')}
        type="tel"
        autoComplete="tel"
        defaultValue={address?.phone ?? ''}
        maxLength={50}
      />
      <CheckboxField
        name="isDefaultShipping"
        label={t('addresses.defaultShipping')}
        defaultSelected={address?.isDefaultShipping ?? false}
      />
      <CheckboxField
        name="isDefaultBilling"
        label={t('addresses.defaultBilling')}
        defaultSelected={address?.isDefaultBilling ?? false}
      />
      <FailureNotice failure={failure} />
      <div className="actions">
        <Button type="submit" isDisabled={create.isPending || update.isPending}>
          {t('addresses.save')}
        </Button>
        <Button variant="secondary" onPress={onDone}>
          {t('addresses.cancel')}
        </Button>
      </div>
    </Form>
  );
}

function AddressCard({ address }: { address: Address }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const t = useText();
  const remove = useMutation(
    trpc.customer.account.deleteAddress.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.customer.account.listAddresses.queryKey() }),
    }),
  );
  if (editing) return <AddressForm address={address} onDone={() => setEditing(false)} />;
  const label = address.name ?? address.line1;
  return (
    <li className="card" aria-label={label}>
      <address>
        {[
          address.name,
          address.company,
          address.line1,
          address.line2,
          [address.postalCode, address.city].filter(Boolean).join(' '),
          address.state,
          countryName(address.country),
          address.phone,
        ]
          .filter(Boolean)
          .map((line) => (
            <span key={line}>{line}</span>
          ))}
      </address>
      <p>
        {address.isDefaultShipping ? <strong>{t('addresses.isDefaultShipping')} </strong> : null}
        {address.isDefaultBilling ? <strong>{t('addresses.isDefaultBilling')}</strong> : null}
      </p>
      <div className="actions">
        <Button
          variant="secondary"
          onPress={() => setEditing(true)}
          aria-label={t('addresses.editLabel', label)}
        >
          {t('addresses.editButton')}
        </Button>
        {confirming ? (
          <>
            <Button
              variant="danger"
              onPress={() => remove.mutate({ id: address.id })}
              isDisabled={remove.isPending}
            >
              {t('addresses.confirmDelete')}
            </Button>
            <Button variant="secondary" onPress={() => setConfirming(false)}>
              {t('addresses.keep')}
            </Button>
          </>
        ) : (
          <Button
            variant="danger"
            onPress={() => setConfirming(true)}
            aria-label={t('addresses.deleteLabel', label)}
          >
            {t('addresses.delete')}
          </Button>
        )}
      </div>
      {remove.isError ? <FailureNotice failure={readFailure(remove.error)} /> : null}
    </li>
  );
}

function Addresses() {
  const trpc = useTRPC();
  const addresses = useQuery(trpc.customer.account.listAddresses.queryOptions({ limit: 100 }));
  const [adding, setAdding] = useState(false);
  const t = useText();
  if (addresses.isPending) return <Loading what={t('addresses.loading')} />;
  if (addresses.isError) return <FailureNotice failure={readFailure(addresses.error)} />;
  return (
    <Page title={t('addresses.title')}>
      {addresses.data.data.length === 0 && !adding ? <Notice>{t('addresses.none')}</Notice> : null}
      <ul className="list">
        {addresses.data.data.map((address) => (
          <AddressCard key={address.id} address={address} />
        ))}
      </ul>
      {adding ? (
        <AddressForm onDone={() => setAdding(false)} />
      ) : (
        <div className="actions">
          <Button onPress={() => setAdding(true)}>{t('addresses.add')}</Button>
        </div>
      )}
    </Page>
  );
}

export function AddressesPage() {
  return (
    <RequireSession>
      <Addresses />
    </RequireSession>
  );
}
