import { Link } from '@tanstack/react-router';
import { useText } from '../i18n/index.ts';
import { RequireSession, SignOutButton, useProfile } from '../session.tsx';
import { Page } from '../ui.tsx';

function AccountHome() {
  const profile = useProfile();
  const t = useText();
  const customer = profile.data!;
  return (
    <Page title={t('account.title')}>
      <p>
        {t('account.signedInAs')} <strong>{customer.email}</strong>
        {customer.name ? ` (${customer.name})` : ''}.
      </p>
      <ul className="tiles">
        <li>
          <Link to="/account/orders">{t('account.orders')}</Link>
        </li>
        <li>
          <Link to="/account/bookings">{t('account.bookings')}</Link>
        </li>
        <li>
          <Link to="/account/addresses">{t('account.addresses')}</Link>
        </li>
        <li>
          <Link to="/account/profile">{t('account.profile')}</Link>
        </li>
      </ul>
      <SignOutButton />
    </Page>
  );
}

export function AccountHomePage() {
  return (
    <RequireSession>
      <AccountHome />
    </RequireSession>
  );
}
