import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';

/** The copy the shipping-label quote fingerprint used before this one (its text is stored in quotes). */
function formerFingerprintJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formerFingerprintJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${formerFingerprintJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) as string;
}

/** The copy the catalog (item metafields, variant options) and the settings used to compare values. */
function formerReplacerJson(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

/** A small deterministic generator (no dependency): the same values on every run. */
function* randomValues(count: number, seed: number, leaf: (next: () => number) => unknown) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const keys = ['a', 'b', 'lineId', 'quantity', 'Zeta', 'é', 'a b', '"q"', 'package', 'x_1'];
  const build = (depth: number): unknown => {
    const pick = next();
    if (depth > 3 || pick < 0.45) return leaf(next);
    if (pick < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => build(depth + 1));
    const object: Record<string, unknown> = {};
    for (let i = Math.floor(next() * 5); i > 0; i--) {
      object[keys[Math.floor(next() * keys.length)] as string] = next() < 0.1 ? undefined : build(depth + 1);
    }
    return object;
  };
  for (let i = 0; i < count; i++) yield build(0);
}

const jsonLeaf = (next: () => number): unknown => {
  const pick = next();
  if (pick < 0.2) return null;
  if (pick < 0.35) return next() < 0.5;
  if (pick < 0.6) return Math.floor(next() * 100_000) - 500;
  if (pick < 0.7) return next() * 1000;
  return ['', 'USD', '1 MAIN ST', 'Ünïcödé "quoted" \\ \n', 'sqf1_x', '😀'][Math.floor(next() * 6)];
};

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined like JSON', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('honours toJSON and writes an array’s undefined as null', () => {
    expect(canonicalJson({ at: new Date('2026-11-29T00:00:00.000Z'), list: [1, undefined] })).toBe(
      '{"at":"2026-11-29T00:00:00.000Z","list":[1,null]}',
    );
  });

  it('is the text the label quote fingerprint hashed before, for what it hashes', () => {
    // The fingerprint's input: strings, integers, booleans, null, arrays of them and of plain objects,
    // objects without undefined array entries, dates or integer-like keys.
    const selection = {
      version: 1,
      organizationId: 'org_1',
      recordId: 'sr_1',
      fulfillmentId: null,
      lines: [
        { lineId: 'srl_a', quantity: 2 },
        { lineId: 'srl_b', quantity: 1 },
      ],
      package: { boxPresetId: 'box_1', boxPresetRevision: 3, lengthMm: 300, widthMm: 200, heightMm: 100 },
      loadedWeightGrams: 1250,
      carrier: 'sandbox',
      service: 'ground',
      shipFromDigest: 'a'.repeat(64),
      shipToDigest: 'b'.repeat(64),
      chargeInCents: 899,
      currency: 'USD',
      acknowledgementsRequired: ['hazmat', 'oversize'],
      overrideReasonRequired: false,
      spendReasonRequired: true,
    };
    const text =
      '{"acknowledgementsRequired":["hazmat","oversize"],"carrier":"sandbox","chargeInCents":899,' +
      '"currency":"USD","fulfillmentId":null,"lines":[{"lineId":"srl_a","quantity":2},{"lineId":"srl_b","quantity":1}],' +
      '"loadedWeightGrams":1250,"organizationId":"org_1","overrideReasonRequired":false,' +
      '"package":{"boxPresetId":"box_1","boxPresetRevision":3,"heightMm":100,"lengthMm":300,"widthMm":200},' +
      `"recordId":"sr_1","service":"ground","shipFromDigest":"${'a'.repeat(64)}","shipToDigest":"${'b'.repeat(64)}",` +
      '"spendReasonRequired":true,"version":1}';
    expect(formerFingerprintJson(selection)).toBe(text);
    expect(canonicalJson(selection)).toBe(text);

    const address = {
      name: 'ADA',
      company: '',
      line1: '1 MAIN ST',
      line2: '',
      city: 'X',
      state: '',
      postalCode: '1',
      country: 'US',
      phone: '',
    };
    expect(canonicalJson(address)).toBe(formerFingerprintJson(address));
    expect(canonicalJson({ lengthMm: 1, widthMm: 2, heightMm: 3, boxPresetId: undefined })).toBe(
      formerFingerprintJson({ lengthMm: 1, widthMm: 2, heightMm: 3, boxPresetId: undefined }),
    );

    for (const value of randomValues(2000, 25, jsonLeaf)) {
      expect(canonicalJson(value)).toBe(formerFingerprintJson(value));
    }
  });

  it('is the text the catalog and settings comparisons wrote before, for JSON values', () => {
    // Item metafields, variant options, resource metafields and settings categories: values read
    // from jsonb or parsed from a request (dates too, which both write through toJSON).
    for (const value of randomValues(2000, 7, (next) =>
      next() < 0.05 ? new Date(Math.floor(next() * 1e12)) : jsonLeaf(next),
    )) {
      expect(canonicalJson(value)).toBe(formerReplacerJson(value));
    }
    // Where they differed: undefined alone, which no caller compares (each compares a value it holds).
    expect(formerReplacerJson(undefined)).toBeUndefined();
    expect(canonicalJson(undefined)).toBe('null');
  });
});
