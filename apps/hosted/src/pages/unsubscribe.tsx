import { useMutation } from '@tanstack/react-query';
import { useText } from '../i18n/index.ts';
import { readFailure, useTRPC } from '../lib/trpc.ts';
import { Button, FailureNotice, Notice, Page } from '../ui.tsx';

/**
 * The unsubscribe links of emails: back-in-stock emails (`/email/unsubscribe`) and abandoned-cart
 * reminders (`/cart/reminders/unsubscribe`). The change waits for a press, so a mail scanner that
 * opens links changes nothing; the token goes in the body.
 */
export function UnsubscribePage({ token, kind }: { token: string | undefined; kind: 'email' | 'cart' }) {
  const trpc = useTRPC();
  const t = useText();
  const email = useMutation(trpc.public.stockNotifications.unsubscribe.mutationOptions());
  const cart = useMutation(trpc.public.checkout.remindersUnsubscribe.mutationOptions());
  const mutation = kind === 'email' ? email : cart;
  const failure = mutation.isError ? readFailure(mutation.error) : undefined;

  if (token === undefined || failure?.status === 404)
    return (
      <Page title={t('unsubscribe.brokenTitle')}>
        <p>{t('unsubscribe.brokenText')}</p>
      </Page>
    );
  if (mutation.isSuccess)
    return (
      <Page title={t('unsubscribe.doneTitle')}>
        <Notice tone="success">
          {mutation.data && 'itemName' in mutation.data
            ? t('unsubscribe.noMoreAbout', mutation.data.itemName)
            : t('unsubscribe.noMoreReminders')}
        </Notice>
      </Page>
    );
  return (
    <Page title={kind === 'email' ? t('unsubscribe.emailTitle') : t('unsubscribe.cartTitle')}>
      <p>{kind === 'email' ? t('unsubscribe.pressEmail') : t('unsubscribe.pressCart')}</p>
      <FailureNotice failure={failure} />
      <div className="actions">
        <Button onPress={() => mutation.mutate({ token })} isDisabled={mutation.isPending}>
          {t('unsubscribe.button')}
        </Button>
      </div>
    </Page>
  );
}
