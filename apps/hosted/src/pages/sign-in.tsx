import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useRouteContext, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useText } from '../i18n/index.ts';
import { fieldErrors, requestSignInInputSchema, verifySignInInputSchema } from '../lib/schemas.ts';
import { signedInStore } from '../lib/tenant.ts';
import { type ApiFailure, readFailure, useTRPC } from '../lib/trpc.ts';
import { useVerifySignIn } from '../session.tsx';
import { Button, FailureNotice, Field, Form, Notice, Page } from '../ui.tsx';

type Method = 'link' | 'code';

/** Where to go once signed in: a path of this app only (never another origin). */
function safeRedirect(value: string | undefined): string {
  return value?.startsWith('/') && !value.startsWith('//') ? value : '/account';
}

/**
 * Signing in finished (the server set the HttpOnly cookie): the answer's `sessionToken` is dropped
 * unread, the note of which store this browser is signed in to is kept, and every cached read
 * (signed-out answers) is thrown away.
 */
function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { slug } = useRouteContext({ from: '__root__' });
  return async (to: string) => {
    signedInStore.set(slug);
    queryClient.clear();
    await navigate({ to: safeRedirect(to) });
  };
}

/** Sign-in (docs/customers.md): email, then a link with a fallback code, or a code only. */
export function SignInPage() {
  const trpc = useTRPC();
  const search = useSearch({ from: '/account/sign-in' });
  const signedIn = useSignedIn();
  const t = useText();
  const [email, setEmail] = useState('');
  const [sentBy, setSentBy] = useState<Method | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [resent, setResent] = useState(false);

  const requestLink = useMutation(trpc.public.customerAuth.requestLink.mutationOptions());
  const requestOtp = useMutation(trpc.public.customerAuth.requestOtp.mutationOptions());
  const verify = useVerifySignIn();

  const request = async (method: Method, address: string) => {
    setFailure(undefined);
    const parsed = requestSignInInputSchema.safeParse({ email: address });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return false;
    }
    setErrors({});
    try {
      await (method === 'link' ? requestLink : requestOtp).mutateAsync(parsed.data);
      setEmail(parsed.data.email);
      setSentBy(method);
      return true;
    } catch (error) {
      setFailure(readFailure(error));
      return false;
    }
  };

  if (sentBy === undefined) {
    return (
      <Page title={t('signIn.title')}>
        <p>{t('signIn.intro')}</p>
        <Form
          validationErrors={errors}
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            void request(submitter?.value === 'code' ? 'code' : 'link', String(data.get('email') ?? ''));
          }}
        >
          <Field
            name="email"
            label={t('signIn.email')}
            type="email"
            autoComplete="email"
            isRequired
            defaultValue={email}
          />
          <FailureNotice failure={failure} />
          <div className="actions">
            <Button
              type="submit"
              name="method"
              value="link"
              isDisabled={requestLink.isPending || requestOtp.isPending}
            >
              {t('signIn.sendLink')}
            </Button>
            <Button
              type="submit"
              name="method"
              value="code"
              variant="secondary"
              isDisabled={requestLink.isPending || requestOtp.isPending}
            >
              {t('signIn.sendCode')}
            </Button>
          </div>
        </Form>
      </Page>
    );
  }

  return (
    <Page title={t('signIn.checkEmail')}>
      <Notice tone="success">
        {sentBy === 'link' ? t('signIn.sentLink', email) : t('signIn.sentCode', email)} {t('signIn.validity')}
      </Notice>
      {resent ? <Notice>{t('signIn.resent')}</Notice> : null}
      <Form
        validationErrors={errors}
        onSubmit={async (event) => {
          event.preventDefault();
          setFailure(undefined);
          const code = String(new FormData(event.currentTarget).get('code') ?? '');
          const parsed = verifySignInInputSchema.safeParse({ email, code });
          if (!parsed.success || code.trim() === '') {
            setErrors(parsed.success ? { code: t('signIn.enterCode') } : fieldErrors(parsed.error));
            return;
          }
          setErrors({});
          try {
            await verify.mutateAsync(parsed.data);
            await signedIn(search.redirect ?? '/account');
          } catch (error) {
            const read = readFailure(error);
            if (read.code === 'VERIFICATION_FAILED') setErrors({ code: t('signIn.codeFailed') });
            else setFailure(read);
          }
        }}
      >
        <Field
          name="code"
          label={t('signIn.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          isRequired
          description={sentBy === 'link' ? t('signIn.orOpenLink') : undefined}
        />
        <FailureNotice failure={failure} />
        <div className="actions">
          <Button type="submit" isDisabled={verify.isPending}>
            {t('signIn.submit')}
          </Button>
          <Button
            variant="secondary"
            isDisabled={requestLink.isPending || requestOtp.isPending}
            onPress={async () => {
              setResent(false);
              if (await request(sentBy, email)) setResent(true);
            }}
          >
            {t('signIn.sendAgain')}
          </Button>
          <Button
            variant="secondary"
            onPress={() => {
              setSentBy(undefined);
              setResent(false);
              setFailure(undefined);
              setErrors({});
            }}
          >
            {t('signIn.otherEmail')}
          </Button>
        </div>
      </Form>
    </Page>
  );
}

/**
 * `/account/verify?token=l1_…`: the emailed link asks for one click before it spends its token. A
 * page load never signs in, so a link an attacker sends cannot replace the visitor's session
 * without them choosing to continue, and a mail scanner that opens links does not use it up.
 */
export function VerifyLinkPage() {
  const { token } = useSearch({ from: '/account/verify' });
  const signedIn = useSignedIn();
  const verify = useVerifySignIn();
  const t = useText();
  const [failure, setFailure] = useState<ApiFailure | undefined>();

  if (!token || (failure && failure.code !== 'RATE_LIMIT_EXCEEDED'))
    return (
      <Page title={t('verify.brokenTitle')}>
        <p>{t('verify.brokenText')}</p>
        <p>
          <Link to="/account/sign-in">{t('verify.signInAgain')}</Link>
        </p>
      </Page>
    );
  return (
    <Page title={t('verify.title')}>
      <p>{t('verify.text')}</p>
      <p>{t('verify.notYou')}</p>
      <FailureNotice failure={failure} />
      <div className="actions">
        <Button
          isDisabled={verify.isPending}
          onPress={async () => {
            setFailure(undefined);
            try {
              await verify.mutateAsync({ token });
              await signedIn('/account');
            } catch (error) {
              setFailure(readFailure(error));
            }
          }}
        >
          {t('verify.continue')}
        </Button>
      </div>
    </Page>
  );
}
