import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../test/organizations.ts';
import { captureSignup } from './capture-signup.ts';
import { listSignups } from './list-signups.ts';
import { signupListQuerySchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-07-02T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const query = (input: Record<string, unknown> = {}) => signupListQuerySchema.parse(input);

describe('listSignups', () => {
  it('lists newest first with the source storefront, pages by id, and keeps a repeat in its first place', async () => {
    const storefront = await insertOrganization(handle.db, 'signup-list');
    const slug = (
      await handle.db
        .selectFrom('organizations')
        .select('slug')
        .where('id', '=', storefront)
        .executeTakeFirstOrThrow()
    ).slug;
    const capture = (email: string, extra: Record<string, string> = {}) =>
      captureSignup(handle.db, { sourceOrganizationId: storefront, at: clock.now() }, { email, ...extra });

    await capture('first@example.com', { name: 'First' });
    clock.advance(1000);
    await capture('second@example.com');
    clock.advance(1000);
    await capture('third@example.com', { message: 'Hi' });
    clock.advance(1000);
    await capture('first@example.com', { companyName: 'First Co' });

    const page = await listSignups(handle.db, query({ limit: '2' }));
    expect(page.data.map((signup) => signup.email)).toEqual(['third@example.com', 'second@example.com']);
    expect(page.data[0]).toEqual({
      id: expect.stringMatching(/^sgn_/),
      email: 'third@example.com',
      name: null,
      companyName: null,
      website: null,
      message: 'Hi',
      sourceOrganization: { id: storefront, slug },
      createdAt: '2026-07-02T09:00:02.000Z',
      updatedAt: '2026-07-02T09:00:02.000Z',
    });
    expect(page.nextCursor).toBe(page.data[1]!.id);

    const rest = await listSignups(handle.db, query({ limit: 2, cursor: page.nextCursor }));
    expect(rest.nextCursor).toBeNull();
    expect(rest.data).toEqual([
      expect.objectContaining({
        email: 'first@example.com',
        name: 'First',
        companyName: 'First Co',
        createdAt: '2026-07-02T09:00:00.000Z',
        updatedAt: '2026-07-02T09:00:03.000Z',
      }),
    ]);
  });

  it('refuses an unknown cursor with 400', async () => {
    await expect(listSignups(handle.db, query({ cursor: 'sgn_unknown' }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});
