import { newToken } from '@commerce/core';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeHexLowerCase } from '@oslojs/encoding';

/**
 * Session tokens follow the Lucia design (lucia-auth.com, "Sessions"): the
 * client holds a random token, the database holds only its SHA-256, which is
 * the session's id. A database leak then yields no usable token, and a lookup
 * by the hash compares no secret bytes in application code.
 */
export const SESSION_TOKEN_PATTERN = /^s1_[A-Za-z0-9_-]{43}$/;

/** `s1_` + 43 base64url characters (32 random bytes), as every credential token. */
export function newSessionToken(): string {
  return newToken('session');
}

export function isSessionToken(value: string): boolean {
  return SESSION_TOKEN_PATTERN.test(value);
}

/** The session id of a token: lowercase hex SHA-256, as Lucia's `encodeHexLowerCase(sha256(token))`. */
export function sessionIdOf(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}
