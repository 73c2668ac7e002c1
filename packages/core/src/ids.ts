import { randomFillSync } from 'node:crypto';

/**
 * Opaque, time-sortable ids: `<prefix>_` + 26 Crockford base32 characters
 * (48 bits of milliseconds, then 80 random bits, as in ULID). Ids created in
 * a later millisecond sort after earlier ones, which keyset pagination uses.
 */
export const ID_PREFIXES = [
  'org',
  'usr',
  'mem',
  'itm',
  'var',
  'col',
  'pag',
  'rev',
  'ord',
  'sal',
  'ful',
  'cus',
  'adr',
  'ret',
  'bks',
  'bkg',
  'hld',
  'grp',
  'aud',
  'obx',
  'eml',
  'req',
  'shz',
  'shr',
  'sgn',
  'stk',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let value = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

// Random bytes come from a pool refilled by the CSPRNG 4 KiB at a time: one
// system call per 256 ids instead of one per id, on the path of every request.
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

function encodeRandom(): string {
  if (poolOffset + 16 > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[pool[poolOffset + i]! & 31];
  poolOffset += 16;
  return out;
}

export function newId(prefix: IdPrefix, now: Date = new Date()): string {
  return `${prefix}_${encodeTime(now.getTime())}${encodeRandom()}`;
}

const ID_PATTERN = /^[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}$/;

export function isId(value: string, prefix?: IdPrefix): boolean {
  return ID_PATTERN.test(value) && (prefix === undefined || value.startsWith(`${prefix}_`));
}
