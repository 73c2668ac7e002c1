import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hashToken,
  isTokenOf,
  newOrderReference,
  newToken,
  secretsEqual,
  TOKEN_FAMILIES,
  type TokenFamily,
} from './tokens.ts';

const EXPECTED_PREFIXES: Record<TokenFamily, string> = {
  session: 's1_',
  action: 'a1_',
  orderStatus: 'o1_',
  checkout: 'c1_',
  bookingGroupProof: 'g1_',
  bookingManagement: 'm1_',
  unsubscribe: 'u1_',
};

describe('newToken', () => {
  it('knows exactly the six contract families and the unsubscribe family', () => {
    expect(Object.keys(TOKEN_FAMILIES).sort()).toEqual(Object.keys(EXPECTED_PREFIXES).sort());
  });

  it.each(Object.entries(EXPECTED_PREFIXES) as [TokenFamily, string][])(
    '%s tokens are %s + 43 base64url characters (46 in all)',
    (family, prefix) => {
      const token = newToken(family);
      expect(token).toHaveLength(46);
      expect(token.startsWith(prefix)).toBe(true);
      expect(token.slice(3)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // 43 base64url characters decode to the 32 random bytes.
      expect(Buffer.from(token.slice(3), 'base64url')).toHaveLength(32);
      expect(isTokenOf(family, token)).toBe(true);
    },
  );

  it('does not repeat itself', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newToken('session')));
    expect(tokens.size).toBe(1000);
  });

  it('isTokenOf refuses another family, a wrong length and characters outside base64url', () => {
    const token = newToken('checkout');
    expect(isTokenOf('session', token)).toBe(false);
    expect(isTokenOf('checkout', token.slice(0, -1))).toBe(false);
    expect(isTokenOf('checkout', `${token}A`)).toBe(false);
    expect(isTokenOf('checkout', `${token.slice(0, -1)}+`)).toBe(false);
    expect(isTokenOf('checkout', `${token.slice(0, -1)}=`)).toBe(false);
    expect(isTokenOf('checkout', '')).toBe(false);
  });
});

describe('hashToken', () => {
  it('is the SHA-256 hex digest of the raw value', () => {
    const token = newToken('action');
    const expected = createHash('sha256').update(token, 'utf8').digest('hex');
    expect(hashToken(token)).toBe(expected);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toBe(token);
    expect(hashToken(token)).not.toContain(token.slice(3));
  });

  it('matches the known SHA-256 test vector', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('is stable for one value and differs between values', () => {
    const a = newToken('session');
    const b = newToken('session');
    expect(hashToken(a)).toBe(hashToken(a));
    expect(hashToken(a)).not.toBe(hashToken(b));
  });
});

describe('secretsEqual', () => {
  it('is true for equal secrets and false otherwise, whatever the lengths', () => {
    const secret = newToken('session');
    expect(secretsEqual(secret, `${secret}`)).toBe(true);
    expect(secretsEqual('', '')).toBe(true);
    expect(secretsEqual(secret, newToken('session'))).toBe(false);
    expect(secretsEqual(secret, secret.slice(0, -1))).toBe(false);
    expect(secretsEqual('short', 'a much longer secret value')).toBe(false);
    expect(secretsEqual('Secret', 'secret')).toBe(false);
  });
});

describe('newOrderReference', () => {
  it('is or1_ + 32 lowercase hex characters and does not repeat', () => {
    const references = Array.from({ length: 1000 }, () => newOrderReference());
    for (const reference of references) expect(reference).toMatch(/^or1_[0-9a-f]{32}$/);
    expect(new Set(references).size).toBe(1000);
  });
});
