import { computeMetrics } from '../metrics';
import { syntheticRecords } from '../metrics/synthetic/syntheticRecords';

// Times computeMetrics over 100,000 synthetic records (target: under 5 s).
const COUNT = Number(process.argv[2] ?? 100_000);
const records = syntheticRecords(COUNT, 42);

computeMetrics(records.slice(0, 2_000)); // warm up the JIT
const start = process.hrtime.bigint();
const report = computeMetrics(records);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;

process.stdout.write(
  `computeMetrics: ${records.length} records in ${seconds.toFixed(3)} s ` +
    `(${Math.round(records.length / seconds)} records/s; ${report.cells.length} cells, ` +
    `${report.excluded_errors} errors left out)\n`,
);
