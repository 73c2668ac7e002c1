import { Liquid, type Template, TokenKind } from 'liquidjs';

/**
 * The liquidjs engines of the template module. None can read files (an empty
 * in-memory template map answers every include), an undefined variable or
 * filter is an error rather than an empty string, and only a scope object's
 * own properties are visible.
 */
const SAFE_OPTIONS = {
  templates: {},
  strictVariables: true,
  strictFilters: true,
  ownPropertyOnly: true,
} as const;

/** Renders merchant copy and the text layout: no escaping. */
export const textEngine = new Liquid(SAFE_OPTIONS);

/** Renders the HTML layout: every output is HTML-escaped, so no value can add markup. */
export const htmlEngine = new Liquid({ ...SAFE_OPTIONS, outputEscape: 'escape' });

/** A dotted variable name: `order.number`, `customer.name`. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

export type CopyProblem =
  | { kind: 'syntax' }
  | { kind: 'tag' }
  | { kind: 'filter' }
  | { kind: 'expression'; source: string };

export interface ParsedCopy {
  templates: Template[];
  /** Variables output by the copy, in first-use order, each once. */
  variables: string[];
  problems: CopyProblem[];
}

// Copy is parsed on every list, preview and send; the same few hundred strings recur.
const PARSE_CACHE_LIMIT = 500;
const parseCache = new Map<string, ParsedCopy>();

/**
 * Parses merchant copy and checks that it holds only plain `{{ name }}`
 * outputs: a tag (`{% … %}`), a filter (`| …`) or any other expression is a
 * problem, so copy can neither branch, loop, include nor call filters.
 */
export function parseCopy(source: string): ParsedCopy {
  const cached = parseCache.get(source);
  if (cached) return cached;
  const parsed = parseUncached(source);
  if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.clear();
  parseCache.set(source, parsed);
  return parsed;
}

function parseUncached(source: string): ParsedCopy {
  let templates: Template[];
  try {
    templates = textEngine.parse(source);
  } catch {
    return { templates: [], variables: [], problems: [{ kind: 'syntax' }] };
  }
  const variables = new Set<string>();
  const problems: CopyProblem[] = [];
  for (const template of templates) {
    const token = template.token;
    if (token.kind === TokenKind.HTML) continue;
    if (token.kind !== TokenKind.Output) {
      problems.push({ kind: 'tag' });
      continue;
    }
    const expression = 'content' in token ? String(token.content).trim() : '';
    if (VARIABLE_NAME.test(expression)) {
      variables.add(expression);
    } else if (expression.includes('|')) {
      problems.push({ kind: 'filter' });
    } else {
      problems.push({ kind: 'expression', source: expression.slice(0, 40) });
    }
  }
  return { templates, variables: [...variables], problems };
}

/** Turns `{ 'order.number': '1042' }` into the nested scope liquid reads: `{ order: { number: '1042' } }`. */
export function toScope(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const segments = name.split('.');
    let node = scope;
    for (const segment of segments.slice(0, -1)) {
      const next = node[segment];
      if (typeof next === 'object' && next !== null) {
        node = next as Record<string, unknown>;
      } else {
        const created: Record<string, unknown> = {};
        node[segment] = created;
        node = created;
      }
    }
    node[segments[segments.length - 1]!] = value;
  }
  return scope;
}
