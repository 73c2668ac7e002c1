/** Where every bench finds the repository, the gateway it builds and starts, and its results. */
import path from 'node:path';

export const BENCH_DIR = import.meta.dirname;
export const ROOT = path.resolve(BENCH_DIR, '..');
export const GATEWAY_DIR = path.join(ROOT, 'apps/gateway');
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');
