// Sums the vitest JSON reports that each package writes under CI into one
// plain closing line, "N passed, N failed", which any reader of CI output
// understands. `--total a b` adds up earlier summaries.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
if (args[0] === '--total') {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of args.slice(1)) {
    const match = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(readFileSync(file, 'utf8'));
    if (!match) throw new Error(`no summary in ${file}`);
    passed += Number(match[1]);
    failed += Number(match[2]);
    skipped += Number(match[3]);
  }
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

const reports = [];
for (const top of ['apps', 'packages', 'bench', 'tooling']) {
  let entries = [];
  try {
    entries = readdirSync(top);
  } catch {
    continue;
  }
  for (const entry of entries) {
    const file = join(top, entry, '.vitest-report.json');
    try {
      if (statSync(file).isFile()) reports.push(file);
    } catch {}
  }
}
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of reports) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
const label = args[0] ?? 'tests';
console.log(`${label} (${reports.length} packages): ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
