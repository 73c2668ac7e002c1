/**
 * The customer session cookie (docs/customers.md "Sign-in and sessions"). `__Host-` binds it to the
 * origin that set it (Secure, Path=/, no Domain); SameSite=Lax keeps it off
 * cross-site subrequests, and the gateway checks Origin on cookie-authenticated
 * mutations besides. Max-Age and Expires follow the session, so the browser
 * drops the cookie when the session ends.
 */
export const SESSION_COOKIE_NAME = '__Host-session';

const ATTRIBUTES = 'Path=/; HttpOnly; Secure; SameSite=Lax';

export function sessionCookie(token: string, expiresAt: Date, at: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - at.getTime()) / 1000));
  return `${SESSION_COOKIE_NAME}=${token}; ${ATTRIBUTES}; Max-Age=${maxAge}; Expires=${expiresAt.toUTCString()}`;
}

/** Tells the browser to drop the cookie (logout). */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE_NAME}=; ${ATTRIBUTES}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/** The session cookie's value from a `Cookie` header, or undefined. */
export function readSessionCookie(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() === SESSION_COOKIE_NAME) {
      const value = pair.slice(separator + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}
