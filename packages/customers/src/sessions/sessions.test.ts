import { ManualClock, newId } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertVerifiedCustomer } from '../accounts/upsert-verified-customer.ts';
import { clearedSessionCookie, readSessionCookie, sessionCookie } from './cookies.ts';
import { sessionIdOf } from './session-token.ts';
import { createSession, invalidateSession, signOut, validateSessionToken } from './sessions.ts';

let database: DatabaseHandle;
const clock = new ManualClock('2026-11-01T00:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;
let shopId: string;
let otherId: string;

async function organization(slug: string): Promise<string> {
  const id = newId('org', clock.now());
  await database.db
    .insertInto('organizations')
    .values({ id, slug, name: slug, created_at: clock.now() })
    .execute();
  return id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  shopId = await organization('sessions-shop');
  otherId = await organization('sessions-other');
});
afterAll(async () => {
  await database.close();
});

const scope = (organizationId = shopId) => ({ organizationId, at: clock.now() });

async function newSession(email: string) {
  const customer = await upsertVerifiedCustomer(database.db, scope(), email);
  return createSession(database.db, scope(), customer.id);
}

describe('sessions', () => {
  it('stores the SHA-256 of the token as the id, never the token', async () => {
    const session = await newSession('a@example.com');
    expect(session.token).toMatch(/^s1_[A-Za-z0-9_-]{43}$/);
    expect(session.sessionId).toBe(sessionIdOf(session.token));
    expect(session.sessionId).toMatch(/^[0-9a-f]{64}$/);
    const rows = await database.db.selectFrom('customer_sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(session.token.slice(3));
  });

  it('validates in its own organization only', async () => {
    const session = await newSession('b@example.com');
    const valid = await validateSessionToken(database.db, scope(), session.token);
    expect(valid).toMatchObject({
      sessionId: session.sessionId,
      isRenewed: false,
      customer: { email: 'b@example.com' },
    });
    expect(await validateSessionToken(database.db, scope(otherId), session.token)).toBeNull();
    expect(await validateSessionToken(database.db, scope(), 'garbage')).toBeNull();
  });

  it('renews when less than 15 days remain, and expires after 30 days', async () => {
    const session = await newSession('c@example.com');
    clock.advance(15 * DAY_MS - 1000);
    expect((await validateSessionToken(database.db, scope(), session.token))?.isRenewed).toBe(false);
    clock.advance(2000);
    const renewed = await validateSessionToken(database.db, scope(), session.token);
    expect(renewed?.isRenewed).toBe(true);
    expect(renewed?.expiresAt.getTime()).toBe(clock.now().getTime() + 30 * DAY_MS);
    clock.advance(30 * DAY_MS);
    expect(await validateSessionToken(database.db, scope(), session.token)).toBeNull();
  });

  it('is gone once invalidated', async () => {
    const session = await newSession('d@example.com');
    await invalidateSession(database.db, shopId, session.sessionId);
    expect(await validateSessionToken(database.db, scope(), session.token)).toBeNull();
  });
});

describe('session cookie', () => {
  it('is __Host- prefixed, HttpOnly, Secure, SameSite=Lax, for the session lifetime', () => {
    const at = new Date('2026-11-01T00:00:00.000Z');
    const expiresAt = new Date(at.getTime() + 30 * DAY_MS);
    expect(sessionCookie('s1_x', expiresAt, at)).toBe(
      '__Host-session=s1_x; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=2592000; Expires=Tue, 01 Dec 2026 00:00:00 GMT',
    );
    expect(clearedSessionCookie()).toContain('Max-Age=0');
  });

  it('is read from a Cookie header among others', () => {
    expect(readSessionCookie('a=1; __Host-session=s1_abc; b=2')).toBe('s1_abc');
    expect(readSessionCookie('session=s1_abc')).toBeUndefined();
    expect(readSessionCookie('__Host-session=')).toBeUndefined();
    expect(readSessionCookie(null)).toBeUndefined();
  });
});

describe('signOut', () => {
  it('revokes the session and audits customer.signed_out once, with the customer as actor', async () => {
    const session = await newSession('leaving@example.com');
    const customer = { id: session.customerId, email: 'leaving@example.com' };

    await signOut(database.db, scope(), { sessionId: session.sessionId, customer });
    await signOut(database.db, scope(), { sessionId: session.sessionId, customer });

    expect(await validateSessionToken(database.db, scope(), session.token)).toBeNull();
    const audits = await database.db
      .selectFrom('audit_logs')
      .select(['actor_user_id', 'actor_email', 'action', 'target_type', 'target_id', 'metadata'])
      .where('organization_id', '=', shopId)
      .where('target_id', '=', customer.id)
      .execute();
    expect(audits).toEqual([
      {
        actor_user_id: customer.id,
        actor_email: 'leaving@example.com',
        action: 'customer.signed_out',
        target_type: 'customer',
        target_id: customer.id,
        metadata: {},
      },
    ]);
  });
});
