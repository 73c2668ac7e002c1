import { describe, expect, it } from 'vitest';
import {
  createPublicCachePolicy,
  entityTag,
  ifNoneMatchMatches,
  sharedCacheControl,
} from '../../src/public-cache.ts';

describe('entityTag', () => {
  it('is a strong tag that changes with the body and only with it', () => {
    const tag = entityTag('{"a":1}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag('{"a":1}')).toBe(tag);
    expect(entityTag('{"a":2}')).not.toBe(tag);
  });
});

describe('ifNoneMatchMatches (weak comparison of a GET precondition)', () => {
  const tag = entityTag('body');
  const opaque = tag.slice(1, -1);

  it.each([
    [tag],
    [`W/${tag}`],
    ['*'],
    ['  *  '],
    [`"x", ${tag}`],
    [`"x",${tag},"y"`],
    [`W/"x" ,\tW/${tag}`],
    [`, ${tag}`],
    [`"x", , ${tag},`],
  ])('matches %s', (header) => {
    expect(ifNoneMatchMatches(header, tag)).toBe(true);
  });

  it.each([
    [undefined],
    [''],
    ['"x"'],
    [opaque],
    [`W/"${tag}"`],
    [`"${opaque}x"`],
    ['*, "x"'],
    [`${tag}garbage`],
    [`${tag} "x"`],
    [`w/${tag}`],
    [`W/ ${tag}`],
    ['"unterminated'],
    [`"x", ${tag.slice(0, -1)}`],
    [`${'"a",'.repeat(2000)}${tag}`],
  ])('does not match %s', (header) => {
    expect(ifNoneMatchMatches(header, tag)).toBe(false);
  });
});

describe('the Cache-Control of each mode', () => {
  const settings = {
    enabled: true,
    shared: false,
    sMaxAgeSeconds: 90,
    staleWhileRevalidateSeconds: 10,
    disabledTenants: ['out'],
  };

  it('lets a CDN keep the answer only in the shared mode, with its settings', () => {
    expect(sharedCacheControl(settings)).toBe('public, max-age=0, s-maxage=90, stale-while-revalidate=10');
  });

  it('keeps the per-tenant opt-out and the global switch in both modes', () => {
    for (const shared of [false, true]) {
      const on = createPublicCachePolicy({ ...settings, shared });
      expect(on.cacheable('shop'), `shared=${shared}`).toBe(true);
      expect(on.cacheable('out'), `shared=${shared}`).toBe(false);
      const off = createPublicCachePolicy({ ...settings, shared, enabled: false });
      expect(off.cacheable('shop'), `shared=${shared}`).toBe(false);
    }
  });
});
