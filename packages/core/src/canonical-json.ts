/**
 * JSON with every object's keys sorted, so equal values give equal text whatever their key order
 * (jsonb does not keep the order a value was written in). `toJSON` is honoured (a `Date` is its ISO
 * text), an object's `undefined` entries are left out, an array's are `null`, and `undefined` alone
 * is `null`: the text `JSON.stringify` would write for the sorted value.
 *
 * What is hashed with it is stored (idempotency keys' intent, return action and guest-access request
 * hashes, shipping-label quote fingerprints), so its text must not change: canonical-json.test.ts
 * pins it.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  const plain =
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON: () => unknown }).toJSON()
      : value;
  if (Array.isArray(plain)) return plain.map((entry) => (entry === undefined ? null : sortKeys(entry)));
  if (plain === null || typeof plain !== 'object') return plain;
  const sorted: Record<string, unknown> = {};
  for (const name of Object.keys(plain).sort()) {
    const entry = (plain as Record<string, unknown>)[name];
    if (entry !== undefined) sorted[name] = sortKeys(entry);
  }
  return sorted;
}
