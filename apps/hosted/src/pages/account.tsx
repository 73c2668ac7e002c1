import { Link } from '@tanstack/react-router';
import { RequireSession, SignOutButton, useProfile } from '../session.tsx';
import { Page } from '../ui.tsx';

function AccountHome() {
  const profile = useProfile();
  const customer = profile.data!;
  return (
    <Page title="Your account">
      <p>
        Signed in as <strong>{customer.email}</strong>
        {customer.name ? ` (${customer.name})` : ''}.
      </p>
      <ul className="tiles">
        <li>
          <Link to="/account/orders">Orders and returns</Link>
        </li>
        <li>
          <Link to="/account/bookings">Bookings</Link>
        </li>
        <li>
          <Link to="/account/addresses">Address book</Link>
        </li>
        <li>
          <Link to="/account/profile">Profile and email</Link>
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
