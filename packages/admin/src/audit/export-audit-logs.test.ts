import { type DatabaseHandle, recordAudit } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_BATCH, exportAuditLogsCsv } from './export-audit-logs.ts';
import { auditLogExportQuerySchema } from './schemas.ts';

let handle: DatabaseHandle;
const ORG = 'org_audit_export';
const BULK = 'org_audit_bulk';
const base = Date.parse('2026-04-01T08:00:00.000Z');
const HEADER = 'timestamp,actorUserId,actorEmail,action,targetType,targetId,metadata\r\n';

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const collected: string[] = [];
  for await (const chunk of chunks) collected.push(chunk);
  return collected;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db
    .insertInto('organizations')
    .values([
      { id: ORG, slug: 'audit-export', name: 'Audit export' },
      { id: BULK, slug: 'audit-bulk', name: 'Bulk' },
    ])
    .execute();
});
afterAll(async () => {
  await handle.close();
});

describe('exportAuditLogsCsv', () => {
  it('writes the header, then every record newest first with the actor email, RFC 4180 quoted', async () => {
    await recordAudit(handle.db, {
      organizationId: ORG,
      actor: { userId: 'usr_ada', email: 'ada@shop.test' },
      action: 'settings.updated',
      targetType: 'settings',
      targetId: ORG,
      metadata: { categories: ['businessProfile', 'notifications'] },
      at: new Date(base),
    });
    await recordAudit(handle.db, {
      organizationId: ORG,
      actor: { userId: null, email: null },
      action: 'item.updated',
      targetType: 'item',
      targetId: 'a "quoted", comma\nline',
      metadata: { note: 'say "hi"' },
      at: new Date(base + 1000),
    });

    const csv = (await collect(exportAuditLogsCsv(handle.db, ORG, {}))).join('');
    expect(csv).toBe(
      HEADER +
        '2026-04-01T08:00:01.000Z,,,item.updated,item,"a ""quoted"", comma\nline","{""note"":""say \\""hi\\""""}"\r\n' +
        `2026-04-01T08:00:00.000Z,usr_ada,ada@shop.test,settings.updated,settings,${ORG},"{""categories"":[""businessProfile"",""notifications""]}"\r\n`,
    );
  });

  it('neutralises cells that a spreadsheet would run as a formula', async () => {
    const org = 'org_audit_formula';
    await handle.db
      .insertInto('organizations')
      .values({ id: org, slug: 'audit-formula', name: 'F' })
      .execute();
    const payloads = [
      '=HYPERLINK("http://evil.test")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\tx',
      '\rx',
      'safe=1',
      'two\nlines',
    ];
    for (const [index, payload] of payloads.entries()) {
      await recordAudit(handle.db, {
        organizationId: org,
        actor: { userId: `usr_${index}`, email: index === 0 ? '=cmd@evil.test' : 'ok@shop.test' },
        action: 'probe.sent',
        targetType: 'probe',
        targetId: payload,
        at: new Date(base + index * 1000),
      });
    }
    const csv = (await collect(exportAuditLogsCsv(handle.db, org, {}))).join('');
    const cells = (index: number) => csv.split('\r\n')[payloads.length - index]!;
    expect(cells(0)).toContain(`'=cmd@evil.test`);
    expect(cells(0)).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(cells(1)).toContain(",'+1+1,");
    expect(cells(2)).toContain(",'-2+3,");
    expect(cells(3)).toContain(",'@SUM(A1),");
    expect(cells(4)).toContain(",'\tx,");
    expect(cells(5)).toContain(`,"'\rx",`);
    expect(cells(6)).toContain(',safe=1,');
    expect(csv).toContain(',"two\nlines",');
  });

  it('applies the filters of the list', async () => {
    const filter = auditLogExportQuerySchema.parse({
      action: 'SETTINGS',
      since: new Date(base).toISOString(),
    });
    const csv = (await collect(exportAuditLogsCsv(handle.db, ORG, filter))).join('');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(csv).toContain('settings.updated');
    expect(csv).not.toContain('item.updated');
  });

  it('runs its query before the first chunk, so a failure comes before any byte', async () => {
    // U+0000 is refused by PostgreSQL (the gateway refuses it before it gets here).
    const chunks = exportAuditLogsCsv(handle.db, ORG, { action: 'a\u0000b' });
    await expect(chunks.next()).rejects.toThrow();
  });

  it('writes the header alone when nothing matches', async () => {
    const csv = (await collect(exportAuditLogsCsv(handle.db, ORG, { action: 'nothing-matches-this' }))).join(
      '',
    );
    expect(csv).toBe(HEADER);
  });

  it('streams in batches from the cursor and leaves the database usable after an early stop', async () => {
    const total = AUDIT_EXPORT_BATCH * 2 + 3;
    const rows = Array.from({ length: total }, (_, index) => ({
      organization_id: BULK,
      id: `aud_bulk_${String(index).padStart(5, '0')}`,
      actor_user_id: 'usr_bulk',
      actor_email: 'bulk@shop.test',
      action: 'bulk.recorded',
      target_type: 'bulk',
      target_id: String(index),
      metadata: '{}',
      created_at: new Date(base + index),
    }));
    await handle.db.insertInto('audit_logs').values(rows).execute();

    const chunks = await collect(exportAuditLogsCsv(handle.db, BULK, {}));
    expect(chunks).toHaveLength(3);
    expect(chunks.map((chunk) => chunk.split('\r\n').length - 1)).toEqual([
      1 + AUDIT_EXPORT_BATCH,
      AUDIT_EXPORT_BATCH,
      3,
    ]);
    const lines = chunks.join('').split('\r\n');
    expect(lines[1]).toContain(`,bulk,${total - 1},`);
    expect(lines[total]).toContain(',bulk,0,');

    const early = exportAuditLogsCsv(handle.db, BULK, {});
    await early.next();
    await early.next();
    await early.return(undefined);
    // On the embedded database a cursor left open would hold its only connection.
    const count = await handle.db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', BULK)
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(total);
  });
});
