/**
 * Benchmarks report ratios against a baseline measured in the same run, so they compare across
 * machines. `npm run bench` runs them all; `npm run bench -- assets` runs the named ones.
 * Benchmarks that need a PostgreSQL server read BENCH_DATABASE_URL (a database the run may create
 * and drop scratch databases in).
 */
import { accessHookBenchmark } from './access-hook';
import { dashboardBenchmark } from './dashboard';
import { assetSearchBenchmark } from './asset-search';
import { eventIngestBenchmark } from './event-ingest';
import { eventSearchBenchmark } from './event-search';
import { indicatorMatchBenchmark } from './indicator-match';
import type { BenchResult } from './support';
import { triggerCycleBenchmark } from './trigger-cycle';

const benchmarks: Record<string, () => Promise<BenchResult>> = {
  access: accessHookBenchmark,
  assets: assetSearchBenchmark,
  ingest: eventIngestBenchmark,
  events: eventSearchBenchmark,
  triggers: triggerCycleBenchmark,
  indicators: indicatorMatchBenchmark,
  dashboard: dashboardBenchmark,
};

const chosen = process.argv.slice(2);
for (const [key, run] of Object.entries(benchmarks)) {
  if (chosen.length > 0 && !chosen.includes(key)) continue;
  const { name, lines } = await run();
  console.log(`${name}\n${lines.map((line) => `  ${line}`).join('\n')}`);
}
