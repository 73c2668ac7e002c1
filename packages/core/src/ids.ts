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
  'sli',
  'chk',
  'chl',
  'rsv',
  'pat',
  'brs',
  'brq',
  'bbo',
  'bcl',
  'bcr',
  'box',
  'inm',
  'pst',
  'lbp',
  'scn',
  'whe',
  'whd',
  'evt',
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

function randomDigits(): number[] {
  if (poolOffset + 16 > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const digits: number[] = [];
  for (let i = 0; i < 16; i++) digits.push(pool[poolOffset + i]! & 31);
  poolOffset += 16;
  return digits;
}

// Monotonic within a millisecond (as ULID's monotonic factory): a second id for the same instant
// takes the previous random part plus one, so ids made in one process sort in creation order and
// keyset lists of rows written in the same millisecond keep that order. A few recent instants are
// remembered, not only the last one: request ids use the wall clock while rows use the injected
// clock, and the two interleave.
const RECENT_INSTANTS = 64;
const lastDigitsAt = new Map<number, number[]>();

function nextDigits(ms: number): number[] {
  const previous = lastDigitsAt.get(ms);
  let digits: number[];
  if (previous) {
    digits = [...previous];
    let index = digits.length - 1;
    while (index >= 0 && digits[index] === 31) {
      digits[index] = 0;
      index -= 1;
    }
    // 2^80 ids in one millisecond cannot happen; if it did, fall back to a fresh random part.
    if (index < 0) digits = randomDigits();
    else digits[index]! += 1;
    lastDigitsAt.delete(ms);
  } else {
    digits = randomDigits();
    if (lastDigitsAt.size >= RECENT_INSTANTS) lastDigitsAt.delete(lastDigitsAt.keys().next().value!);
  }
  lastDigitsAt.set(ms, digits);
  return digits;
}

export function newId(prefix: IdPrefix, now: Date = new Date()): string {
  const ms = now.getTime();
  let body = encodeTime(ms);
  for (const digit of nextDigits(ms)) body += ALPHABET[digit];
  return `${prefix}_${body}`;
}

const ID_PATTERN = /^[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}$/;

export function isId(value: string, prefix?: IdPrefix): boolean {
  return ID_PATTERN.test(value) && (prefix === undefined || value.startsWith(`${prefix}_`));
}
