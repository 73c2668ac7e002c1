import { AppError, type ValidationIssue } from '@commerce/core';

/**
 * The one check of hostile input at the edge, shared by REST and /trpc:
 * text no field of the contract can carry is refused here with `400
 * VALIDATION_FAILED` and the field's path, before any procedure, schema or
 * query sees it (PostgreSQL refuses U+0000 and lone surrogates with a fault,
 * and deep JSON can exhaust the stack of recursive code).
 *
 * - U+0000 is refused everywhere.
 * - Single-line values (path parameters, query values, header values) refuse
 *   every C0 control character and DEL.
 * - JSON strings and keys (free text: descriptions, notes, templates) keep
 *   tab, line feed and carriage return and refuse the other C0 controls and DEL.
 * - Lone surrogates (`"\ud800"` in JSON) are refused everywhere: they are not
 *   Unicode text and PostgreSQL cannot store them.
 * - JSON nests at most `MAX_JSON_DEPTH` levels; deeper input is refused by a
 *   scan of its text, before it is parsed.
 */

/** Objects and arrays inside one another, the body itself being level 1. */
export const MAX_JSON_DEPTH = 64;

/** The rules of this module as the OpenAPI document states them for every route. */
export const INPUT_RULES = [
  'Every route answers `400 VALIDATION_FAILED` at the field for text no field can carry: U+0000 anywhere,',
  'other control characters (JSON strings keep tab, line feed and carriage return), lone surrogates,',
  `bytes or percent-escapes that are not UTF-8, JSON nested deeper than ${MAX_JSON_DEPTH} levels, and`,
  'over-long `x-organization-slug`, `authorization` or `x-idempotency-key` headers.',
].join(' ');

/** Issues reported per request at most; the rest would only repeat the first ones. */
const MAX_ISSUES = 20;

/**
 * The longest value the gateway reads from the headers it uses; a longer one is
 * refused before it is parsed, verified or looked up. A slug is at most 63
 * characters, an idempotency key 255 (the alias may be quoted), and a bearer
 * token (an identity-provider JWT with its claims) stays far below 8 KiB.
 */
export const HEADER_LIMITS: Readonly<Record<string, number>> = {
  'x-organization-slug': 255,
  authorization: 8192,
  'x-idempotency-key': 255,
  'idempotency-key': 257,
};

type TextKind = 'line' | 'text';

/** Any character the loop below looks at: most text has none, and the regular expression is native. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const SUSPECT = /[\u0000-\u001f\u007f\ud800-\udfff]/;

/** Why `value` cannot be carried, or undefined when it can. */
export function textProblem(value: string, kind: TextKind): string | undefined {
  if (!SUSPECT.test(value)) return undefined;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) {
      if (code === 0) return 'must not contain the NUL character (U+0000)';
      if (kind === 'text' && (code === 0x09 || code === 0x0a || code === 0x0d)) continue;
      return `must not contain the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = value.charCodeAt(index + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        index++;
        continue;
      }
      return 'must be well-formed Unicode (it contains a lone surrogate)';
    }
  }
  return undefined;
}

/** Collects issues up to `MAX_ISSUES`. */
export class IssueList {
  readonly issues: ValidationIssue[] = [];

  add(path: string, message: string): void {
    if (this.issues.length < MAX_ISSUES) this.issues.push({ path, message });
  }

  text(path: string, value: string, kind: TextKind): void {
    const problem = textProblem(value, kind);
    if (problem) this.add(path, problem);
  }

  get full(): boolean {
    return this.issues.length >= MAX_ISSUES;
  }
}

/** The headers the gateway reads: length limits and single-line text. */
export function checkHeaders(headers: Headers, issues: IssueList): void {
  for (const [name, limit] of Object.entries(HEADER_LIMITS)) {
    const value = headers.get(name);
    if (value === null) continue;
    if (value.length > limit) issues.add(`headers.${name}`, `must be at most ${limit} characters`);
    else issues.text(`headers.${name}`, value, 'line');
  }
}

/**
 * Whether `text` (JSON) opens more than `maxDepth` objects or arrays inside
 * one another: a linear scan with a counter, so depth costs no stack.
 */
export function jsonTooDeep(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

const joinPath = (prefix: string, segment: string | number) =>
  prefix === '' ? String(segment) : `${prefix}.${segment}`;

/**
 * Checks every string and key of a parsed JSON value, without recursion.
 * `value` must come from `parseJson` (or `JSON.parse` of text that passed
 * `jsonTooDeep`), so it is a tree of plain values.
 */
export function checkJsonValue(value: unknown, path: string, issues: IssueList): void {
  const stack: [unknown, string, number][] = [[value, path, 1]];
  while (stack.length > 0 && !issues.full) {
    const [current, at, depth] = stack.pop()!;
    if (typeof current === 'string') {
      issues.text(at, current, 'text');
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      issues.add(at, `must not nest more than ${MAX_JSON_DEPTH} levels`);
      continue;
    }
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push([current[index], joinPath(at, index), depth + 1]);
      continue;
    }
    const entries = Object.entries(current);
    for (const [key] of entries) {
      // Reported at the object, so that the response does not echo the key.
      const keyProblem = textProblem(key, 'text');
      if (keyProblem) issues.add(at, `has a key that ${keyProblem}`);
    }
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      stack.push([child, joinPath(at, key), depth + 1]);
    }
  }
}

/**
 * Parses JSON text the edge accepts: nested at most `MAX_JSON_DEPTH` levels,
 * every string and key carriable. A problem of the text itself is reported at
 * `textPath` (`body`, `input`); a field's at its path under `fieldPrefix`
 * (`''` for a body, so that paths read like the schema's). The value is
 * returned only when nothing was found.
 */
export function parseJson(
  text: string,
  textPath: string,
  fieldPrefix: string,
  issues: IssueList,
): { ok: true; value: unknown } | { ok: false } {
  if (jsonTooDeep(text)) {
    issues.add(textPath, `must not nest more than ${MAX_JSON_DEPTH} levels`);
    return { ok: false };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    issues.add(textPath, 'is not valid JSON');
    return { ok: false };
  }
  const before = issues.issues.length;
  checkJsonValue(value, fieldPrefix, issues);
  return issues.issues.length === before ? { ok: true, value } : { ok: false };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body's bytes as text, or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: ArrayBuffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** `decodeURIComponent` (with `+` as space in a query), or undefined when the escapes are not UTF-8. */
function strictDecode(raw: string, plusIsSpace: boolean): string | undefined {
  const text = plusIsSpace ? raw.replaceAll('+', ' ') : raw;
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Checks each key and value of a raw query string (without `?`): the escapes
 * must decode to UTF-8 (a lenient decoder would pass `%FF` on as those three
 * characters) and the text must be a single line, except the value of
 * `jsonKey` (/trpc's `input`), which must be JSON the edge accepts.
 */
export function checkQuery(rawQuery: string, issues: IssueList, jsonKey?: string): void {
  if (rawQuery === '') return;
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawKey = equals === -1 ? pair : pair.slice(0, equals);
    const key = strictDecode(rawKey, true);
    if (key === undefined) {
      issues.add('query', 'has a parameter name that is not percent-encoded UTF-8');
      continue;
    }
    const keyProblem = textProblem(key, 'line');
    if (keyProblem) {
      issues.add('query', `has a parameter name that ${keyProblem}`);
      continue;
    }
    if (equals === -1) continue;
    const value = strictDecode(pair.slice(equals + 1), true);
    if (value === undefined) issues.add(key, 'is not percent-encoded UTF-8');
    else if (key === jsonKey) parseJson(value, key, '', issues);
    else issues.text(key, value, 'line');
  }
}

/**
 * Checks the path parameters of a route from the raw path, so that an
 * escape that is not UTF-8 is refused rather than passed on undecoded.
 * `template` is the route's router path (`/api/v1/merchant/items/:id`).
 */
export function checkPathParams(rawPath: string, template: string, issues: IssueList): void {
  const segments = rawPath.split('/');
  const names = template.split('/');
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    if (!name.startsWith(':')) continue;
    const value = strictDecode(segments[index] ?? '', false);
    if (value === undefined) issues.add(name.slice(1), 'is not percent-encoded UTF-8');
    else issues.text(name.slice(1), value, 'line');
  }
}

/** The most calls one /trpc request may batch: a first-party screen batches a few reads. */
export const TRPC_MAX_BATCH_SIZE = 10;

/**
 * The edge's checks for a /trpc request: the headers, the query (`input` as
 * JSON) and a POST body (UTF-8 JSON). Issue paths are relative to the input,
 * so a batch's read `0.name`. Returns the request to hand to tRPC (rebuilt
 * around the body that was read) and the error every call answers, if any.
 */
export async function guardTrpcRequest(raw: Request): Promise<{ request: Request; refused?: AppError }> {
  const issues = new IssueList();
  checkHeaders(raw.headers, issues);
  const url = raw.url;
  const query = url.indexOf('?');
  checkQuery(query === -1 ? '' : url.slice(query + 1), issues, 'input');
  let request = raw;
  if (raw.method !== 'GET' && raw.method !== 'HEAD') {
    const text = decodeUtf8(await raw.arrayBuffer());
    if (text === undefined) issues.add('body', 'is not UTF-8 text');
    else if (text.trim() !== '') {
      const contentType = raw.headers.get('content-type') ?? '';
      if (!/^application\/json\b/i.test(contentType))
        issues.add('headers.content-type', 'must be application/json');
      else parseJson(text, 'body', '', issues);
    }
    request = new Request(url, {
      method: raw.method,
      headers: raw.headers,
      body: text ?? '',
      signal: raw.signal,
    });
  }
  return issues.issues.length === 0 ? { request } : { request, refused: AppError.validation(issues.issues) };
}
