import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, isId, newId } from './ids.ts';

const CROCKFORD_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('newId', () => {
  it.each(ID_PREFIXES)('makes %s_ + 26 Crockford base32 characters', (prefix) => {
    const id = newId(prefix);
    expect(id.startsWith(`${prefix}_`)).toBe(true);
    expect(id.slice(prefix.length + 1)).toMatch(CROCKFORD_BODY);
    expect(id).toHaveLength(prefix.length + 1 + 26);
  });

  it('never uses the letters Crockford leaves out (I, L, O, U) or lowercase in the body', () => {
    const bodies = Array.from({ length: 2000 }, () => newId('itm').slice(4)).join('');
    expect(bodies).not.toMatch(/[ILOU]/);
    expect(bodies).not.toMatch(/[a-z]/);
  });

  it('encodes the time first: the same millisecond shares the first 10 characters', () => {
    const at = new Date('2026-05-01T12:00:00.000Z');
    const a = newId('ord', at);
    const b = newId('ord', at);
    expect(a.slice(0, 14)).toBe(b.slice(0, 14));
    expect(a).not.toBe(b);
  });

  it('sorts ids made in later milliseconds after earlier ones', () => {
    const start = new Date('2026-01-01T00:00:00.000Z').getTime();
    const steps = [0, 1, 2, 31, 32, 33, 1023, 1024, 86_400_000, 31_536_000_000];
    const ids = steps.map((offset) => newId('itm', new Date(start + offset)));
    for (let i = 1; i < ids.length; i++) {
      expect(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`).toBe(true);
    }
    // Across many random bodies: the time prefix always wins.
    for (let i = 0; i < 500; i++) {
      const earlier = newId('itm', new Date(start + i));
      const later = newId('itm', new Date(start + i + 1));
      expect(earlier < later).toBe(true);
    }
  });

  it('sorts ids of the epoch and of the far future in time order', () => {
    const epoch = newId('usr', new Date(0));
    const now = newId('usr', new Date('2026-01-01T00:00:00.000Z'));
    const future = newId('usr', new Date('9999-12-31T23:59:59.999Z'));
    expect(epoch.slice(4, 14)).toBe('0000000000');
    expect(epoch < now && now < future).toBe(true);
  });

  it('sorts ids made in one millisecond in the order they were made', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    const ids = Array.from({ length: 5000 }, () => newId('aud', at));
    expect([...ids].sort()).toEqual(ids);
    // Another instant starts from a fresh random part, and the earlier instant's ids stay behind.
    const later = newId('aud', new Date(at.getTime() + 1));
    expect(later > ids[ids.length - 1]!).toBe(true);
  });

  it('keeps the order within an instant when ids of another instant are made in between', () => {
    const fixed = new Date('2026-03-01T00:00:00.000Z');
    const made: string[] = [];
    for (let n = 0; n < 200; n++) {
      made.push(newId('var', fixed));
      newId('req', new Date(fixed.getTime() + 1 + (n % 3)));
    }
    expect([...made].sort()).toEqual(made);
  });

  it('makes 10,000 unique ids in one millisecond', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('aud', at)));
    expect(ids.size).toBe(10_000);
  });
});

describe('isId', () => {
  it('accepts a fresh id, with or without its prefix named', () => {
    const id = newId('col');
    expect(isId(id)).toBe(true);
    expect(isId(id, 'col')).toBe(true);
  });

  it('refuses an id of another prefix when a prefix is named', () => {
    expect(isId(newId('col'), 'itm')).toBe(false);
  });

  const valid = 'itm_01JABCDEFGHJKMNPQRSTVWXYZ0';

  it('accepts the hand-written reference id', () => {
    expect(valid).toHaveLength(4 + 26);
    expect(isId(valid, 'itm')).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['no prefix', valid.slice(4)],
    ['short body', valid.slice(0, -1)],
    ['long body', `${valid}Z`],
    ['lowercase body', `itm_${valid.slice(4).toLowerCase()}`],
    ['excluded letter U', `${valid.slice(0, -1)}U`],
    ['excluded letter I', `${valid.slice(0, -1)}I`],
    ['excluded letter L', `${valid.slice(0, -1)}L`],
    ['excluded letter O', `${valid.slice(0, -1)}O`],
    ['uppercase prefix', valid.replace('itm', 'ITM')],
    ['four-letter prefix', valid.replace('itm', 'item')],
    ['trailing space', `${valid} `],
    ['SQL', "itm_' or 1=1 --"],
  ])('refuses %s', (_label, value) => {
    expect(isId(value)).toBe(false);
  });
});
