import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, merchantClaims } from '../../test/factories.ts';
import { addMembership } from './add-membership.ts';
import { listMemberships } from './list-memberships.ts';
import type { MembershipRead } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-06T12:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

/** 11 memberships over 4 timestamps, so that most pages cut through rows with the same created_at. */
async function seedMemberships(organizationId: string): Promise<void> {
  const offsets = [0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3];
  for (const offset of offsets) {
    await addMembership(handle.db, {
      organizationId,
      email: merchantClaims().email,
      role: 'Staff',
      permissions: [],
      at: new Date(clock.now().getTime() + offset * 1000),
    });
  }
}

async function walk(organizationId: string, limit: number): Promise<MembershipRead[][]> {
  const pages: MembershipRead[][] = [];
  let cursor: string | undefined;
  do {
    const page = await listMemberships(handle.db, organizationId, { limit, cursor });
    pages.push(page.data);
    cursor = page.nextCursor ?? undefined;
    if (pages.length > 20) throw new Error('pagination does not terminate');
  } while (cursor !== undefined);
  return pages;
}

describe('listMemberships keyset pagination on the real database', () => {
  it.each([1, 2, 3, 4, 10, 11, 12, 50])(
    'pages of %s give every membership once, oldest first',
    async (limit) => {
      const organization = await insertOrganization(handle.db);
      const other = await insertOrganization(handle.db);
      await seedMemberships(organization.id);
      await seedMemberships(other.id);
      const expected = await handle.db
        .selectFrom('memberships')
        .select(['id', 'created_at'])
        .where('organization_id', '=', organization.id)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();

      const pages = await walk(organization.id, limit);

      const ids = pages.flat().map((membership) => membership.id);
      expect(ids).toEqual(expected.map((row) => row.id));
      expect(new Set(ids).size).toBe(11);
      expect(pages).toHaveLength(Math.max(1, Math.ceil(11 / limit)));
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
      const createdAts = pages.flat().map((membership) => membership.createdAt);
      expect(createdAts).toEqual([...createdAts].sort());
    },
  );

  it('refuses a cursor that names no membership of the organization', async () => {
    const organization = await insertOrganization(handle.db);
    const other = await insertOrganization(handle.db);
    const foreign = await addMembership(handle.db, {
      organizationId: other.id,
      email: merchantClaims().email,
      role: 'Owner',
      permissions: [],
      at: clock.now(),
    });

    for (const cursor of ['mem_00000000000000000000000000', foreign.id]) {
      const error = await listMemberships(handle.db, organization.id, { limit: 10, cursor }).then(
        () => undefined,
        (rejection: unknown) => rejection,
      );
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: 'cursor' }] } });
    }
  });
});
