import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { CountrySelect, countryName } from '../countries.tsx';
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
  const title = address ? 'Edit address' : 'New address';
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
        label="Recipient"
        autoComplete="name"
        defaultValue={address?.name ?? ''}
        maxLength={200}
      />
      <Field
        name="company"
        label="Company"
        autoComplete="organization"
        defaultValue={address?.company ?? ''}
        maxLength={200}
      />
      <Field
        name="line1"
        label="Address line 1"
        autoComplete="address-line1"
        isRequired
        defaultValue={address?.line1 ?? ''}
        maxLength={300}
      />
      <Field
        name="line2"
        label="Address line 2"
        autoComplete="address-line2"
        defaultValue={address?.line2 ?? ''}
        maxLength={300}
      />
      <Field
        name="city"
        label="City"
        autoComplete="address-level2"
        isRequired
        defaultValue={address?.city ?? ''}
        maxLength={200}
      />
      <Field
        name="state"
        label="State or region"
        autoComplete="address-level1"
        defaultValue={address?.state ?? ''}
        maxLength={200}
      />
      <Field
        name="postalCode"
        label="Postal code"
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
        label="Phone"
        type="tel"
        autoComplete="tel"
        defaultValue={address?.phone ?? ''}
        maxLength={50}
      />
      <CheckboxField
        name="isDefaultShipping"
        label="Default shipping address"
        defaultSelected={address?.isDefaultShipping ?? false}
      />
      <CheckboxField
        name="isDefaultBilling"
        label="Default billing address"
        defaultSelected={address?.isDefaultBilling ?? false}
      />
      <FailureNotice failure={failure} />
      <div className="actions">
        <Button type="submit" isDisabled={create.isPending || update.isPending}>
          Save address
        </Button>
        <Button variant="secondary" onPress={onDone}>
          Cancel
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
        {address.isDefaultShipping ? <strong>Default shipping. </strong> : null}
        {address.isDefaultBilling ? <strong>Default billing.</strong> : null}
      </p>
      <div className="actions">
        <Button variant="secondary" onPress={() => setEditing(true)} aria-label={`Edit ${label}`}>
          Edit
        </Button>
        {confirming ? (
          <>
            <Button
              variant="danger"
              onPress={() => remove.mutate({ id: address.id })}
              isDisabled={remove.isPending}
            >
              Yes, delete it
            </Button>
            <Button variant="secondary" onPress={() => setConfirming(false)}>
              Keep it
            </Button>
          </>
        ) : (
          <Button variant="danger" onPress={() => setConfirming(true)} aria-label={`Delete ${label}`}>
            Delete
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
  if (addresses.isPending) return <Loading what="your addresses" />;
  if (addresses.isError) return <FailureNotice failure={readFailure(addresses.error)} />;
  return (
    <Page title="Address book">
      {addresses.data.data.length === 0 && !adding ? <Notice>You have no saved addresses.</Notice> : null}
      <ul className="list">
        {addresses.data.data.map((address) => (
          <AddressCard key={address.id} address={address} />
        ))}
      </ul>
      {adding ? (
        <AddressForm onDone={() => setAdding(false)} />
      ) : (
        <div className="actions">
          <Button onPress={() => setAdding(true)}>Add an address</Button>
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
