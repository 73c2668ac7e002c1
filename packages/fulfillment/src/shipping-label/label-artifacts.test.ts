import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLabelArtifact, readLabelArtifacts, storeLabelArtifact } from './label-artifacts.ts';

async function pdfWithPages(pages: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let index = 0; index < pages; index += 1) document.addPage([288, 432]);
  return document.save();
}

describe('label artifacts', () => {
  let testDb: DatabaseHandle;
  const at = new Date('2026-11-26T12:00:00Z');
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb.close();
  });

  it('stores once per purchase, reads by tenant, and a safe label passes every check', async () => {
    const { db } = testDb;
    const bytes = await pdfWithPages(1);
    const input = { organizationId: 'org_a', purchaseId: 'lbp_1', contentType: 'application/pdf', at };
    expect(await storeLabelArtifact(db, { ...input, bytes })).toBe('STORED');
    // A retry with other bytes keeps the first.
    expect(await storeLabelArtifact(db, { ...input, bytes: await pdfWithPages(2) })).toBe('STORED');
    const mine = await readLabelArtifacts(db, 'org_a', ['lbp_1', 'lbp_missing']);
    expect([...mine.keys()]).toEqual(['lbp_1']);
    const artifact = mine.get('lbp_1');
    expect(artifact?.byteSize).toBe(bytes.byteLength);
    expect(Buffer.from(artifact?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
    expect((await readLabelArtifacts(db, 'org_b', ['lbp_1'])).size).toBe(0);
    const checked = artifact && (await checkLabelArtifact(artifact));
    expect(checked?.safe).toBe(true);
  });

  it('refuses an empty or oversized document at store', async () => {
    const input = { organizationId: 'org_a', purchaseId: 'lbp_big', contentType: 'application/pdf', at };
    expect(await storeLabelArtifact(testDb.db, { ...input, bytes: new Uint8Array(0) })).toBe('TOO_LARGE');
    expect(
      await storeLabelArtifact(testDb.db, { ...input, bytes: new Uint8Array(2 * 1024 * 1024 + 1) }),
    ).toBe('TOO_LARGE');
    expect((await readLabelArtifacts(testDb.db, 'org_a', ['lbp_big'])).size).toBe(0);
  });

  it('finds every kind of unsafe label', async () => {
    const good = await pdfWithPages(1);
    const base = { purchaseId: 'x', contentType: 'application/pdf', storedAt: at };
    const { createHash } = await import('node:crypto');
    const of = (bytes: Uint8Array, extra: Partial<typeof base> = {}) => ({
      ...base,
      ...extra,
      bytes,
      byteSize: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const why = async (artifact: Parameters<typeof checkLabelArtifact>[0]) => {
      const result = await checkLabelArtifact(artifact);
      return result.safe ? 'safe' : result.why;
    };
    expect(await why(of(good, { contentType: 'image/png' }))).toMatch(/content type/);
    expect(await why(of(new TextEncoder().encode('hello world')))).toMatch(/%PDF-/);
    expect(await why({ ...of(good), sha256: '0'.repeat(64) })).toMatch(/SHA-256/);
    expect(await why(of(new TextEncoder().encode('%PDF-1.7 not really')))).toMatch(/load/);
    expect(await why(of(await pdfWithPages(5)))).toMatch(/5 pages/);
    expect(await why(of(await pdfWithPages(4)))).toBe('safe');
  });
});
