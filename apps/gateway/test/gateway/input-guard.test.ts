import { describe, expect, it } from 'vitest';
import {
  checkHeaders,
  checkJsonValue,
  checkPathParams,
  checkQuery,
  decodeUtf8,
  IssueList,
  jsonTooDeep,
  MAX_JSON_DEPTH,
  parseJson,
  textProblem,
} from '../../src/input-guard.ts';

const nested = (depth: number) => `${'['.repeat(depth - 1)}{"a":1}${']'.repeat(depth - 1)}`;

describe('textProblem', () => {
  it('refuses NUL in every kind of text', () => {
    expect(textProblem('a\u0000b', 'line')).toMatch(/U\+0000/);
    expect(textProblem('a\u0000b', 'text')).toMatch(/U\+0000/);
  });

  it('keeps tab, line feed and carriage return in free text only', () => {
    expect(textProblem('one\ttwo\r\nthree', 'text')).toBeUndefined();
    expect(textProblem('one\ttwo', 'line')).toMatch(/U\+0009/);
    expect(textProblem('a\nb', 'line')).toMatch(/U\+000A/);
  });

  it('refuses the other C0 controls and DEL everywhere', () => {
    for (const code of [0x01, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f]) {
      const char = String.fromCharCode(code);
      expect(textProblem(`x${char}`, 'text'), code.toString(16)).toMatch(/control character/);
      expect(textProblem(`x${char}`, 'line'), code.toString(16)).toMatch(/control character/);
    }
  });

  it('refuses lone surrogates and keeps pairs, C1 and other Unicode', () => {
    expect(textProblem('\ud800', 'text')).toMatch(/lone surrogate/);
    expect(textProblem('a\udc00b', 'line')).toMatch(/lone surrogate/);
    expect(textProblem('\ud83d', 'text')).toMatch(/lone surrogate/);
    expect(textProblem('emoji 😀 café \u0085 ß', 'line')).toBeUndefined();
  });
});

describe('JSON', () => {
  it('counts nesting without parsing, ignoring brackets inside strings', () => {
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ text: '['.repeat(1000), quote: '\\"[[[' }))).toBe(false);
    expect(jsonTooDeep('['.repeat(1_000_000))).toBe(true);
  });

  it('reports each string and key it cannot carry at its path', () => {
    const issues = new IssueList();
    checkJsonValue(
      { name: 'ok\n', items: [{ sku: 'a\u0000' }, { note: '\u0001' }], 'bad\u0000key': 1, lone: '\ud800' },
      '',
      issues,
    );
    expect(issues.issues.map((issue) => issue.path)).toEqual(['', 'items.0.sku', 'items.1.note', 'lone']);
    expect(issues.issues[0]?.message).toMatch(/^has a key that must not contain the NUL/);
  });

  it('parses accepted text and refuses deep, malformed or hostile text at the text path', () => {
    const ok = new IssueList();
    expect(parseJson('{"a":[1,"b"]}', 'body', '', ok)).toEqual({ ok: true, value: { a: [1, 'b'] } });
    expect(ok.issues).toEqual([]);

    for (const [text, path] of [
      [nested(8000), 'body'],
      ['{"a":', 'body'],
      ['{"a":{"b":"\\u0000"}}', 'a.b'],
    ] as const) {
      const issues = new IssueList();
      expect(parseJson(text, 'body', '', issues).ok).toBe(false);
      expect(issues.issues[0]?.path).toBe(path);
    }
  });

  it('stops after twenty issues', () => {
    const issues = new IssueList();
    checkJsonValue(
      Array.from({ length: 100 }, () => '\u0000'),
      '',
      issues,
    );
    expect(issues.issues).toHaveLength(20);
  });
});

describe('URL and headers', () => {
  it('refuses query values that are not UTF-8 or not a single line, naming the parameter', () => {
    const issues = new IssueList();
    checkQuery('cursor=%00&search=a%FFb&ok=caf%C3%A9+100%25&tab=a%09b&x%00=1', issues);
    expect(issues.issues.map((issue) => issue.path)).toEqual(['cursor', 'search', 'tab', 'query']);
  });

  it('checks the JSON-valued query parameter as JSON', () => {
    const issues = new IssueList();
    checkQuery(`input=${encodeURIComponent(JSON.stringify({ 0: { name: 'a\u0000' } }))}`, issues, 'input');
    expect(issues.issues).toEqual([{ path: '0.name', message: expect.stringMatching(/U\+0000/) }]);
  });

  it('names the path parameter from the route template', () => {
    const issues = new IssueList();
    checkPathParams('/api/v1/items/x%00y/reviews/%FF', '/api/v1/items/:slug/reviews/:id', issues);
    expect(issues.issues.map((issue) => issue.path)).toEqual(['slug', 'id']);
  });

  it('bounds and checks the headers the gateway reads', () => {
    const issues = new IssueList();
    checkHeaders(
      new Headers({
        'x-organization-slug': 's'.repeat(256),
        authorization: 'Bearer a\u0001b',
        'x-idempotency-key': 'k'.repeat(255),
        'user-agent': 'u'.repeat(10_000),
      }),
      issues,
    );
    expect(issues.issues.map((issue) => issue.path)).toEqual([
      'headers.x-organization-slug',
      'headers.authorization',
    ]);
  });

  it('decodes UTF-8 strictly', () => {
    expect(decodeUtf8(new TextEncoder().encode('café').buffer as ArrayBuffer)).toBe('café');
    expect(decodeUtf8(new Uint8Array([0x7b, 0xff, 0x7d]).buffer)).toBeUndefined();
    // An encoded lone surrogate (CESU-8) is not UTF-8 either.
    expect(decodeUtf8(new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]).buffer)).toBeUndefined();
  });
});
