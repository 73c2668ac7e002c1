import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useRouteContext, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
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
      <Page title="Sign in">
        <p>Enter your email. We will send you a sign-in link or a one-time code: no password needed.</p>
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
            label="Email"
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
              Email me a sign-in link
            </Button>
            <Button
              type="submit"
              name="method"
              value="code"
              variant="secondary"
              isDisabled={requestLink.isPending || requestOtp.isPending}
            >
              Email me a code
            </Button>
          </div>
        </Form>
      </Page>
    );
  }

  return (
    <Page title="Check your email">
      <Notice tone="success">
        {sentBy === 'link'
          ? `If ${email} can sign in here, we sent it a sign-in link and a 6-digit code.`
          : `If ${email} can sign in here, we sent it a 6-digit code.`}{' '}
        They work once, for 15 minutes.
      </Notice>
      {resent ? <Notice>We sent a new email.</Notice> : null}
      <Form
        validationErrors={errors}
        onSubmit={async (event) => {
          event.preventDefault();
          setFailure(undefined);
          const code = String(new FormData(event.currentTarget).get('code') ?? '');
          const parsed = verifySignInInputSchema.safeParse({ email, code });
          if (!parsed.success || code.trim() === '') {
            setErrors(parsed.success ? { code: 'Enter the code from the email' } : fieldErrors(parsed.error));
            return;
          }
          setErrors({});
          try {
            await verify.mutateAsync(parsed.data);
            await signedIn(search.redirect ?? '/account');
          } catch (error) {
            const read = readFailure(error);
            if (read.code === 'VERIFICATION_FAILED')
              setErrors({ code: 'That code did not work. Check it, or ask for a new one.' });
            else setFailure(read);
          }
        }}
      >
        <Field
          name="code"
          label="6-digit code"
          autoComplete="one-time-code"
          inputMode="numeric"
          isRequired
          description={sentBy === 'link' ? 'Or open the link in the email on this device.' : undefined}
        />
        <FailureNotice failure={failure} />
        <div className="actions">
          <Button type="submit" isDisabled={verify.isPending}>
            Sign in
          </Button>
          <Button
            variant="secondary"
            isDisabled={requestLink.isPending || requestOtp.isPending}
            onPress={async () => {
              setResent(false);
              if (await request(sentBy, email)) setResent(true);
            }}
          >
            Send again
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
            Use another email
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
  const [failure, setFailure] = useState<ApiFailure | undefined>();

  if (!token || (failure && failure.code !== 'RATE_LIMIT_EXCEEDED'))
    return (
      <Page title="This sign-in link does not work">
        <p>It may have been used already, or it expired (links work for 15 minutes).</p>
        <p>
          <Link to="/account/sign-in">Sign in again</Link>
        </p>
      </Page>
    );
  return (
    <Page title="Finish signing in">
      <p>This link signs you in to this store with the email it was sent to. It works once.</p>
      <p>If you did not ask for it, close this page: nothing happens until you continue.</p>
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
          Continue to sign in
        </Button>
      </div>
    </Page>
  );
}
