import { AppError } from '@commerce/core';
import { type DatabaseHandle, recordAudit } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditLogs } from './list-audit-logs.ts';
import { type AuditLogListQuery, auditLogListQuerySchema } from './schemas.ts';

let handle: DatabaseHandle;
const ORG = 'org_audit_list';
const OTHER = 'org_audit_other';
const base = Date.parse('2026-03-01T12:00:00.000Z');
const at = (minutes: number) => new Date(base + minutes * 60_000);

/** Ids of the seeded records by name, to compare lists by something readable. */
const ids = new Map<string, string>();

async function seed(
  name: string,
  entry: {
    action: string;
    targetType: string;
    targetId?: string;
    actor?: string;
    minute: number;
    org?: string;
  },
) {
  const id = await recordAudit(handle.db, {
    organizationId: entry.org ?? ORG,
    actor: { userId: entry.actor ?? 'usr_ada', email: `${entry.actor ?? 'usr_ada'}@shop.test` },
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    metadata: { name },
    at: at(entry.minute),
  });
  ids.set(id, name);
}

const names = (page: { data: { id: string }[] }) => page.data.map((row) => ids.get(row.id));
const query = (input: Record<string, unknown> = {}): AuditLogListQuery =>
  auditLogListQuerySchema.parse(input);

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db
    .insertInto('organizations')
    .values([
      { id: ORG, slug: 'audit-list', name: 'Audit list' },
      { id: OTHER, slug: 'audit-other', name: 'Other' },
    ])
    .execute();
  await seed('settings', { action: 'settings.updated', targetType: 'settings', targetId: ORG, minute: 0 });
  await seed('step-done', {
    action: 'onboarding.step_completed',
    targetType: 'onboarding_step',
    targetId: 'business_profile',
    minute: 1,
  });
  await seed('item-created', { action: 'item.created', targetType: 'item', targetId: 'itm_1', minute: 2 });
  await seed('item-updated', {
    action: 'item.updated',
    targetType: 'item',
    targetId: 'itm_1',
    actor: 'usr_bob',
    minute: 3,
  });
  await seed('percent', { action: 'odd.100%_done', targetType: 'odd', minute: 4 });
  await seed('step-reopened', {
    action: 'onboarding.step_reopened',
    targetType: 'onboarding_step',
    targetId: 'business_profile',
    actor: 'usr_bob',
    minute: 5,
  });
  await seed('foreign', {
    action: 'item.created',
    targetType: 'item',
    targetId: 'itm_1',
    minute: 6,
    org: OTHER,
  });
});
afterAll(async () => {
  await handle.close();
});

describe('listAuditLogs', () => {
  it("lists only the organization's records, newest first, in the read shape without the actor's email", async () => {
    const page = await listAuditLogs(handle.db, ORG, query());
    expect(names(page)).toEqual([
      'step-reopened',
      'percent',
      'item-updated',
      'item-created',
      'step-done',
      'settings',
    ]);
    expect(page.nextCursor).toBeNull();
    expect(page.data[0]).toEqual({
      id: expect.stringMatching(/^aud_/),
      actorUserId: 'usr_bob',
      action: 'onboarding.step_reopened',
      targetType: 'onboarding_step',
      targetId: 'business_profile',
      metadata: { name: 'step-reopened' },
      createdAt: at(5).toISOString(),
    });
  });

  it('filters by a case-insensitive substring of the action', async () => {
    expect(names(await listAuditLogs(handle.db, ORG, query({ action: 'ONBOARDING.step' })))).toEqual([
      'step-reopened',
      'step-done',
    ]);
    expect(names(await listAuditLogs(handle.db, ORG, query({ action: 'item.' })))).toEqual([
      'item-updated',
      'item-created',
    ]);
  });

  it('matches %, _ and \\ in the action filter literally', async () => {
    expect(names(await listAuditLogs(handle.db, ORG, query({ action: '100%_' })))).toEqual(['percent']);
    expect(names(await listAuditLogs(handle.db, ORG, query({ action: '%' })))).toEqual(['percent']);
    expect(names(await listAuditLogs(handle.db, ORG, query({ action: '_' })))).toEqual([
      'step-reopened',
      'percent',
      'step-done',
    ]);
    // As a wildcard `_` would match the 0 of "odd.100".
    expect(names(await listAuditLogs(handle.db, ORG, query({ action: 'odd.1_0' })))).toEqual([]);
    expect(names(await listAuditLogs(handle.db, ORG, query({ action: '\\' })))).toEqual([]);
  });

  it('filters by exact target type, target id and actor', async () => {
    expect(names(await listAuditLogs(handle.db, ORG, query({ targetType: 'item' })))).toEqual([
      'item-updated',
      'item-created',
    ]);
    expect(names(await listAuditLogs(handle.db, ORG, query({ targetType: 'ite' })))).toEqual([]);
    expect(names(await listAuditLogs(handle.db, ORG, query({ targetId: 'business_profile' })))).toEqual([
      'step-reopened',
      'step-done',
    ]);
    expect(names(await listAuditLogs(handle.db, ORG, query({ actorUserId: 'usr_bob' })))).toEqual([
      'step-reopened',
      'item-updated',
    ]);
  });

  it('takes since as inclusive and until as exclusive', async () => {
    const window = query({ since: at(1).toISOString(), until: at(3).toISOString() });
    expect(names(await listAuditLogs(handle.db, ORG, window))).toEqual(['item-created', 'step-done']);
  });

  it('composes every filter with AND', async () => {
    const composed = query({
      action: 'item',
      targetType: 'item',
      targetId: 'itm_1',
      actorUserId: 'usr_bob',
      since: at(0).toISOString(),
      until: at(10).toISOString(),
    });
    expect(names(await listAuditLogs(handle.db, ORG, composed))).toEqual(['item-updated']);
    expect(
      names(await listAuditLogs(handle.db, ORG, query({ action: 'settings', actorUserId: 'usr_bob' }))),
    ).toEqual([]);
  });

  it('pages with the cursor without skipping or repeating, also across records of the same instant', async () => {
    for (let n = 0; n < 5; n++) {
      await seed(`tie-${n}`, { action: 'tie.recorded', targetType: 'tie', minute: 30 });
    }
    const seen: (string | undefined)[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAuditLogs(
        handle.db,
        ORG,
        query({ action: 'tie.', limit: 2, ...(cursor ? { cursor } : {}) }),
      );
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...names(page));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(['tie-0', 'tie-1', 'tie-2', 'tie-3', 'tie-4']);
  });

  it("refuses a cursor naming another organization's record", async () => {
    const foreign = [...ids.entries()].find(([, name]) => name === 'foreign')![0];
    const failure = await listAuditLogs(handle.db, ORG, query({ cursor: foreign })).catch((error) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('VALIDATION_FAILED');
  });
});

describe('auditLogListQuerySchema', () => {
  it('defaults limit to 50 and accepts 1 to 200', () => {
    expect(query().limit).toBe(50);
    expect(query({ limit: '200' }).limit).toBe(200);
    for (const limit of ['0', '201', '-1', '1.5', 'ten']) {
      expect(auditLogListQuerySchema.safeParse({ limit }).success).toBe(false);
    }
  });

  it('refuses dates that are not ISO 8601 and a since after until', () => {
    expect(auditLogListQuerySchema.safeParse({ since: 'yesterday' }).success).toBe(false);
    expect(auditLogListQuerySchema.safeParse({ since: '2026-03-01' }).success).toBe(false);
    expect(auditLogListQuerySchema.safeParse({ since: '2026-03-01T10:00:00+02:00' }).success).toBe(true);
    const reversed = auditLogListQuerySchema.safeParse({
      since: '2026-03-02T00:00:00Z',
      until: '2026-03-01T00:00:00Z',
    });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]?.path).toEqual(['until']);
  });
});
