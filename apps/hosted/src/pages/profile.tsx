import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useText } from '../i18n/index.ts';
import { fieldErrors, updateCustomerProfileInputSchema, verifySignInInputSchema } from '../lib/schemas.ts';
import { type ApiFailure, readFailure, useTRPC } from '../lib/trpc.ts';
import { RequireSession, useProfile, useVerifySignIn } from '../session.tsx';
import { Button, FailureNotice, Field, Form, Notice, Page } from '../ui.tsx';

/** Name and phone; the email changes once the new address is verified (a link or a code sent to it). */
function Profile() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const t = useText();
  const customer = profile.data!;
  const update = useMutation(trpc.customer.account.updateProfile.mutationOptions());
  const verify = useVerifySignIn();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [emailErrors, setEmailErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [saved, setSaved] = useState<string | undefined>();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.customer.account.getProfile.queryKey() });

  return (
    <Page title={t('profile.title')}>
      {saved ? <Notice tone="success">{saved}</Notice> : null}
      <FailureNotice failure={failure} />
      <Form
        aria-label={t('profile.nameAndPhone')}
        validationErrors={errors}
        onSubmit={async (event) => {
          event.preventDefault();
          setSaved(undefined);
          setFailure(undefined);
          const data = new FormData(event.currentTarget);
          const parsed = updateCustomerProfileInputSchema.safeParse({
            name: String(data.get('name') ?? ''),
            phone: String(data.get('phone') ?? ''),
          });
          if (!parsed.success) return setErrors(fieldErrors(parsed.error));
          setErrors({});
          try {
            await update.mutateAsync(parsed.data);
            await refresh();
            setSaved(t('profile.saved'));
          } catch (error) {
            setFailure(readFailure(error));
          }
        }}
      >
        <Field
          name="name"
          label={t('profile.name')}
          autoComplete="name"
          defaultValue={customer.name ?? ''}
          maxLength={200}
        />
        <Field
          name="phone"
          label={t('profile.phone')}
          type="tel"
          autoComplete="tel"
          defaultValue={customer.phone ?? ''}
          maxLength={50}
        />
        <div className="actions">
          <Button type="submit" isDisabled={update.isPending}>
            {t('profile.save')}
          </Button>
        </div>
      </Form>

      <h2>{t('profile.email')}</h2>
      <p>
        {t('profile.signInWith')} <strong>{customer.email}</strong>.
      </p>
      {customer.pendingEmail ? (
        <Form
          aria-label={t('profile.confirmEmail')}
          validationErrors={emailErrors}
          onSubmit={async (event) => {
            event.preventDefault();
            setSaved(undefined);
            setFailure(undefined);
            const code = String(new FormData(event.currentTarget).get('code') ?? '');
            const parsed = verifySignInInputSchema.safeParse({ email: customer.pendingEmail, code });
            if (!parsed.success || code.trim() === '')
              return setEmailErrors(
                parsed.success ? { code: t('profile.enterCode') } : fieldErrors(parsed.error),
              );
            setEmailErrors({});
            try {
              await verify.mutateAsync(parsed.data);
              await refresh();
              setSaved(t('profile.emailChanged'));
            } catch (error) {
              const read = readFailure(error);
              if (read.code === 'VERIFICATION_FAILED') setEmailErrors({ code: t('profile.codeFailed') });
              else setFailure(read);
            }
          }}
        >
          <Notice>
            {t('profile.sentTo')} <strong>{customer.pendingEmail}</strong>. {t('profile.changesOnce')}
          </Notice>
          <Field
            name="code"
            label={t('profile.code')}
            autoComplete="one-time-code"
            inputMode="numeric"
            isRequired
          />
          <div className="actions">
            <Button type="submit" isDisabled={verify.isPending}>
              {t('profile.confirmNewEmail')}
            </Button>
          </div>
        </Form>
      ) : null}
      <Form
        aria-label={t('profile.changeEmail')}
        validationErrors={emailErrors}
        onSubmit={async (event) => {
          event.preventDefault();
          setSaved(undefined);
          setFailure(undefined);
          const parsed = updateCustomerProfileInputSchema.safeParse({
            email: String(new FormData(event.currentTarget).get('email') ?? '').trim(),
          });
          if (!parsed.success) return setEmailErrors(fieldErrors(parsed.error));
          setEmailErrors({});
          try {
            await update.mutateAsync(parsed.data);
            await refresh();
          } catch (error) {
            setFailure(readFailure(error));
          }
        }}
      >
        <Field name="email" label={t('profile.newEmail')} type="email" autoComplete="email" isRequired />
        <div className="actions">
          <Button type="submit" variant="secondary" isDisabled={update.isPending}>
            {t('profile.changeEmail')}
          </Button>
        </div>
      </Form>
    </Page>
  );
}

export function ProfilePage() {
  return (
    <RequireSession>
      <Profile />
    </RequireSession>
  );
}
