// The codebase's shape in figures: per package its lines and files (sources and tests apart) and
// the names its entry points publish (each `exports` path of its package.json, counted by the
// TypeScript checker, so `export *` chains count what they really publish); then the largest
// source files. Run from the repository root: `node scripts/layout-figures.mjs`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = process.cwd();
const isSource = (name) => /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts');
const isTest = (file) => /\.test\.tsx?$/.test(file) || /\/(test|e2e)\//.test(file);

function walk(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file, out);
    else if (isSource(name)) out.push(file);
  }
  return out;
}

const lines = (file) => readFileSync(file, 'utf8').split('\n').length;

function publicNames(packageDir) {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const exported =
    typeof manifest.exports === 'string' ? { '.': manifest.exports } : (manifest.exports ?? {});
  const counts = {};
  for (const [subpath, target] of Object.entries(exported)) {
    const file = path.resolve(
      packageDir,
      typeof target === 'string' ? target : (target.default ?? target.import),
    );
    const program = ts.createProgram([file], {
      allowImportingTsExtensions: true,
      noEmit: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      jsx: ts.JsxEmit.ReactJSX,
      skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    counts[subpath] = symbol ? checker.getExportsOfModule(symbol).length : 0;
  }
  return counts;
}

const rows = [];
const all = [];
for (const group of ['packages', 'apps']) {
  for (const name of readdirSync(path.join(root, group)).sort()) {
    const dir = path.join(root, group, name);
    if (!statSync(dir).isDirectory()) continue;
    const files = walk(dir);
    const sources = files.filter((file) => !isTest(file));
    const tests = files.filter(isTest);
    all.push(...sources);
    const names = group === 'packages' ? publicNames(dir) : {};
    rows.push({
      package: `${group}/${name}`,
      sourceLines: sources.reduce((sum, file) => sum + lines(file), 0),
      sourceFiles: sources.length,
      testLines: tests.reduce((sum, file) => sum + lines(file), 0),
      testFiles: tests.length,
      publicNames: Object.entries(names)
        .map(([subpath, count]) => `${subpath}: ${count}`)
        .join(', '),
    });
  }
}
console.table(rows);
const largest = all
  .map((file) => ({ file: path.relative(root, file), lines: lines(file) }))
  .sort((a, b) => b.lines - a.lines)
  .slice(0, 12);
console.table(largest);
