import { useMutation } from '@tanstack/react-query';
import { readFailure, useTRPC } from '../lib/trpc.ts';
import { Button, FailureNotice, Notice, Page } from '../ui.tsx';

/**
 * The unsubscribe links of emails: back-in-stock emails (`/email/unsubscribe`) and abandoned-cart
 * reminders (`/cart/reminders/unsubscribe`). The change waits for a press, so a mail scanner that
 * opens links changes nothing; the token goes in the body.
 */
export function UnsubscribePage({ token, kind }: { token: string | undefined; kind: 'email' | 'cart' }) {
  const trpc = useTRPC();
  const email = useMutation(trpc.public.stockNotifications.unsubscribe.mutationOptions());
  const cart = useMutation(trpc.public.checkout.remindersUnsubscribe.mutationOptions());
  const mutation = kind === 'email' ? email : cart;
  const what = kind === 'email' ? 'these emails' : 'cart reminders';
  const failure = mutation.isError ? readFailure(mutation.error) : undefined;

  if (token === undefined || failure?.status === 404)
    return (
      <Page title="This link does not work">
        <p>Open the unsubscribe link again from the email.</p>
      </Page>
    );
  if (mutation.isSuccess)
    return (
      <Page title="You are unsubscribed">
        <Notice tone="success">
          {mutation.data && 'itemName' in mutation.data
            ? `You will get no more emails about ${mutation.data.itemName}.`
            : 'You will get no more cart reminders from this store.'}
        </Notice>
      </Page>
    );
  return (
    <Page title={kind === 'email' ? 'Unsubscribe from these emails' : 'Stop cart reminders'}>
      <p>Press the button to stop {what}.</p>
      <FailureNotice failure={failure} />
      <div className="actions">
        <Button onPress={() => mutation.mutate({ token })} isDisabled={mutation.isPending}>
          Unsubscribe
        </Button>
      </div>
    </Page>
  );
}
