import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantClaims, readUsersBySubject } from '../../test/factories.ts';
import { resolveMerchantUser } from './resolve-merchant-user.ts';
import { updateProfileInputSchema } from './schemas.ts';
import { updateMerchantProfile } from './update-merchant-profile.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-04T12:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

describe('updateMerchantProfile', () => {
  it('sets the name and returns the user read', async () => {
    const claims = merchantClaims({ name: 'From Provider' });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());
    clock.advance(5000);

    const updated = await updateMerchantProfile(handle.db, user, { name: 'Chosen Name' }, clock.now());

    expect(updated).toEqual({ id: user.id, email: claims.email, name: 'Chosen Name' });
    const [stored] = await readUsersBySubject(handle.db, claims.subject);
    expect(stored).toMatchObject({ name: 'Chosen Name' });
    expect(stored!.updated_at.getTime()).toBe(clock.now().getTime());
  });

  it('is not overwritten by a different name claim at a later sign-in', async () => {
    const claims = merchantClaims({ name: 'First Claim' });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());
    await updateMerchantProfile(handle.db, user, { name: 'Chosen Name' }, clock.now());

    clock.advance(60_000);
    const again = await resolveMerchantUser(handle.db, { ...claims, name: 'Second Claim' }, clock.now());

    expect(again.name).toBe('Chosen Name');
  });

  it('is not overwritten by a name claim at a sign-in that changes the email', async () => {
    const claims = merchantClaims({ name: 'First Claim' });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());
    await updateMerchantProfile(handle.db, user, { name: 'Chosen Name' }, clock.now());

    const changed = await resolveMerchantUser(
      handle.db,
      { ...claims, email: `changed-${claims.email}`, name: 'Second Claim' },
      clock.now(),
    );

    expect(changed.name).toBe('Chosen Name');
    expect(changed.email).toBe(`changed-${claims.email}`);
  });

  it("changes only the given user's row", async () => {
    const mine = await resolveMerchantUser(handle.db, merchantClaims({ name: 'Mine' }), clock.now());
    const theirs = await resolveMerchantUser(handle.db, merchantClaims({ name: 'Theirs' }), clock.now());

    await updateMerchantProfile(handle.db, mine, { name: 'Renamed' }, clock.now());

    const [stored] = await readUsersBySubject(handle.db, theirs.subject);
    expect(stored!.name).toBe('Theirs');
  });
});

describe('updateProfileInputSchema', () => {
  it('trims the name and refuses empty, too long or unknown input', () => {
    expect(updateProfileInputSchema.parse({ name: '  Ada  ' })).toEqual({ name: 'Ada' });
    expect(updateProfileInputSchema.safeParse({ name: '   ' }).success).toBe(false);
    expect(updateProfileInputSchema.safeParse({ name: 'x'.repeat(201) }).success).toBe(false);
    expect(updateProfileInputSchema.safeParse({ name: 'Ada', email: 'a@b.c' }).success).toBe(false);
  });
});
