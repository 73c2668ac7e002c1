import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, ManualClock } from '@commerce/core';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintDevToken } from './dev-token.ts';
import { bearerToken, createMerchantTokenVerifier, type MerchantTokenVerifier } from './merchant-jwt.ts';

const SECRET = 'test-merchant-jwt-secret-0123456789-abcdefghij';
const ISSUER = 'https://id.commerce.test';
const AUDIENCE = 'commerce-api';
const START = new Date('2026-01-01T00:00:00.000Z');
const START_SECONDS = Math.floor(START.getTime() / 1000);

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const encode = (secret: string) => new TextEncoder().encode(secret);

async function expectUnauthenticated(verifier: MerchantTokenVerifier, token: string): Promise<AppError> {
  const error = await verifier.verify(token).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  return error as AppError;
}

/** An HS256 token with exactly the given claims; nothing is added behind the test's back. */
async function signHs256(payload: JWTPayload, secret = SECRET): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(encode(secret));
}

const validPayload = (overrides: JWTPayload = {}): JWTPayload => ({
  sub: 'idp|alice',
  email: 'alice@example.com',
  iss: ISSUER,
  aud: AUDIENCE,
  iat: START_SECONDS,
  exp: START_SECONDS + 3600,
  ...overrides,
});

describe('createMerchantTokenVerifier with the HS256 secret', () => {
  const clock = new ManualClock(START);
  const verifier = createMerchantTokenVerifier({ secret: SECRET, issuer: ISSUER, audience: AUDIENCE }, clock);
  const mint = (input: { email?: string; name?: string; subject?: string; secret?: string } = {}) =>
    mintDevToken({
      secret: input.secret ?? SECRET,
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: input.subject ?? 'idp|alice',
      email: input.email ?? 'alice@example.com',
      name: input.name,
      expiresInSeconds: 3600,
      now: clock.now(),
    });

  it('returns the claims of a valid dev token, email lowercased and name null when absent', async () => {
    const claims = await verifier.verify(await mint({ email: 'Alice.Smith@Example.COM' }));
    expect(claims).toEqual({
      subject: 'idp|alice',
      email: 'alice.smith@example.com',
      name: null,
      emailVerified: true,
    });
  });

  it('keeps the name claim when present', async () => {
    const claims = await verifier.verify(await mint({ name: 'Alice Smith' }));
    expect(claims.name).toBe('Alice Smith');
  });

  it.each([
    ['absent', undefined, false],
    ['true', true, true],
    ['false', false, false],
  ])(
    'emailVerified is true only when email_verified is true (%s)',
    async (_label, emailVerified, expected) => {
      const token = await signHs256(
        validPayload(emailVerified === undefined ? {} : { email_verified: emailVerified }),
      );
      expect((await verifier.verify(token)).emailVerified).toBe(expected);
    },
  );

  it('accepts a token until its expiry and refuses it once the clock passes exp', async () => {
    const token = await mint();
    clock.set(START);
    clock.advance(3599 * 1000);
    await expect(verifier.verify(token)).resolves.toMatchObject({ subject: 'idp|alice' });
    clock.advance(2000);
    const error = await expectUnauthenticated(verifier, token);
    expect(error.message).toBe('The token has expired');
    clock.set(START);
  });

  it('refuses a token signed with another secret', async () => {
    await expectUnauthenticated(verifier, await mint({ secret: `${SECRET}-other` }));
  });

  it('refuses a token whose signature was tampered with', async () => {
    const token = await mint();
    const [header, payload] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...validPayload(), sub: 'idp|mallory' }),
      'utf8',
    ).toString('base64url');
    await expectUnauthenticated(verifier, `${header}.${forgedPayload}.${token.split('.')[2]}`);
    expect(payload).not.toBe(forgedPayload);
  });

  it('refuses a token of another issuer', async () => {
    await expectUnauthenticated(verifier, await signHs256(validPayload({ iss: 'https://evil.example' })));
  });

  it('refuses a token for another audience', async () => {
    await expectUnauthenticated(verifier, await signHs256(validPayload({ aud: 'another-api' })));
  });

  it('refuses a token without sub', async () => {
    const { sub: _sub, ...withoutSubject } = validPayload();
    await expectUnauthenticated(verifier, await signHs256(withoutSubject));
  });

  it('refuses a token with an empty sub', async () => {
    await expectUnauthenticated(verifier, await signHs256(validPayload({ sub: '' })));
  });

  it('refuses a token without email', async () => {
    const { email: _email, ...withoutEmail } = validPayload();
    const error = await expectUnauthenticated(verifier, await signHs256(withoutEmail));
    expect(error.message).toBe('The token must carry sub and email claims');
  });

  it.each(['not-an-email', 'alice@', '@example.com', 42])(
    'refuses a token with the invalid email %j',
    async (email) => {
      await expectUnauthenticated(verifier, await signHs256(validPayload({ email })));
    },
  );

  it('refuses an unsigned alg: none token', async () => {
    const unsigned = new UnsecuredJWT(validPayload()).encode();
    expect(unsigned.endsWith('.')).toBe(true);
    await expectUnauthenticated(verifier, unsigned);
  });

  it('refuses a hand-made alg: none token that keeps a signature', async () => {
    const token = await signHs256(validPayload());
    const [, payload, signature] = token.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' }), 'utf8').toString('base64url');
    await expectUnauthenticated(verifier, `${header}.${payload}.${signature}`);
    await expectUnauthenticated(verifier, `${header}.${payload}.`);
  });

  it('refuses HS512 even with the right secret (only HS256 is allowed)', async () => {
    const token = await new SignJWT(validPayload()).setProtectedHeader({ alg: 'HS512' }).sign(encode(SECRET));
    await expectUnauthenticated(verifier, token);
  });

  it('refuses a token without exp', async () => {
    const { exp: _exp, ...withoutExpiry } = validPayload();
    await expectUnauthenticated(verifier, await signHs256(withoutExpiry));
  });

  it('refuses a token that is not valid yet (nbf in the future)', async () => {
    await expectUnauthenticated(verifier, await signHs256(validPayload({ nbf: START_SECONDS + 600 })));
  });

  it.each(['garbage', '', 'a.b.c', 'eyJhbGciOiJIUzI1NiJ9..', 'Bearer x'])(
    'refuses the garbage string %j',
    async (token) => {
      await expectUnauthenticated(verifier, token);
    },
  );

  it('needs a secret or a JWKS URL', () => {
    expect(() => createMerchantTokenVerifier({ issuer: ISSUER, audience: AUDIENCE }, clock)).toThrow(
      /MERCHANT_JWKS_URL or MERCHANT_JWT_SECRET/,
    );
  });
});

describe('createMerchantTokenVerifier with a JWKS URL', () => {
  const clock = new ManualClock(START);
  const KID = 'test-key-1';
  let server: Server;
  let jwksUrl: string;
  let privateKey: PrivateKey;
  let requests = 0;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey;
    const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
    server = createServer((request, response) => {
      requests += 1;
      if (request.url !== '/.well-known/jwks.json') {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    jwksUrl = `http://127.0.0.1:${port}/.well-known/jwks.json`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  });

  const signRs256 = (key: PrivateKey, kid = KID, payload: JWTPayload = validPayload()) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(key);

  it('verifies a token signed with the published key', async () => {
    const verifier = createMerchantTokenVerifier({ jwksUrl, issuer: ISSUER, audience: AUDIENCE }, clock);
    const claims = await verifier.verify(
      await signRs256(privateKey, KID, validPayload({ name: 'Alice', email_verified: true })),
    );
    expect(claims).toEqual({
      subject: 'idp|alice',
      email: 'alice@example.com',
      name: 'Alice',
      emailVerified: true,
    });
    expect(requests).toBeGreaterThan(0);
  });

  it('refuses a token signed with another key under the same kid', async () => {
    const verifier = createMerchantTokenVerifier({ jwksUrl, issuer: ISSUER, audience: AUDIENCE }, clock);
    const other = await generateKeyPair('RS256');
    await expectUnauthenticated(verifier, await signRs256(other.privateKey));
  });

  it('refuses a token signed with an unknown kid', async () => {
    const verifier = createMerchantTokenVerifier({ jwksUrl, issuer: ISSUER, audience: AUDIENCE }, clock);
    const other = await generateKeyPair('RS256');
    await expectUnauthenticated(verifier, await signRs256(other.privateKey, 'unknown-key'));
  });

  it('refuses an HS256 token, even one signed with the configured secret', async () => {
    const verifier = createMerchantTokenVerifier(
      { jwksUrl, secret: SECRET, issuer: ISSUER, audience: AUDIENCE },
      clock,
    );
    await expectUnauthenticated(verifier, await signHs256(validPayload()));
  });

  it('refuses an expired RS256 token by the injected clock', async () => {
    const verifier = createMerchantTokenVerifier({ jwksUrl, issuer: ISSUER, audience: AUDIENCE }, clock);
    const token = await signRs256(privateKey);
    await expect(verifier.verify(token)).resolves.toMatchObject({ subject: 'idp|alice' });
    clock.advance(3601 * 1000);
    await expectUnauthenticated(verifier, token);
    clock.set(START);
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer x', 'x'],
    ['bearer  x', 'x'],
    ['BEARER abc.def.ghi', 'abc.def.ghi'],
    ['Bearer x ', 'x'],
  ])('reads %j as %j', (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });

  it.each(['Basic x', 'Bearer', 'Bearer ', '', 'Bearer x y', 'Token x', 'Bearerx'])(
    'reads %j as no credential',
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );

  it('reads null and undefined as no credential', () => {
    expect(bearerToken(null)).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
