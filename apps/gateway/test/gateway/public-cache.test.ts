import { describe, expect, it } from 'vitest';
import { entityTag, ifNoneMatchMatches } from '../../src/public-cache.ts';

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
