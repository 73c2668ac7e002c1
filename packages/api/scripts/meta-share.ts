/**
 * The share of the routers' characters taken by `.meta({...})` blocks and by OpenAPI description
 * prose (`summary` and `description` values), over every file under src/routers.
 * Run: `cd packages/api && npx tsx scripts/meta-share.ts`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

let total = 0;
let meta = 0;
let prose = 0;
let procedures = 0;
let longest = 0;
for (const path of files(new URL('../src/routers', import.meta.url).pathname)) {
  const text = readFileSync(path, 'utf8');
  total += text.length;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'meta'
    ) {
      meta += node.getEnd() - node.expression.name.getStart();
      if (text.slice(node.getStart(), node.getEnd()).includes('openapi')) procedures += 1;
    }
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      (node.name.text === 'description' || node.name.text === 'summary')
    ) {
      const size = node.initializer.getEnd() - node.initializer.getStart();
      prose += size;
      if (node.name.text === 'description') longest = Math.max(longest, size);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
const share = (part: number) => `${((100 * part) / total).toFixed(1)}%`;
console.log(
  JSON.stringify({
    routerCharacters: total,
    procedures,
    metaCharacters: meta,
    meta: share(meta),
    proseCharacters: prose,
    prose: share(prose),
    longestDescription: longest,
  }),
);
