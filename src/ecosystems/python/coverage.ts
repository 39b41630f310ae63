import { runCoverage, type RunCoverage } from '../../domain/coverage';
import { HARNESS_DIR } from '../containerPaths';

/** coverage.py, baked into the Python image (ecosystem.ts) in a folder of the harness's own: never in the venv, so never in `pip list` (D2) nor in the distributions D3 maps to. */
export const PYTHON_COVERAGE_VERSION = '7.6.10';
export const PYTHON_COVERAGE_DIR = `${HARNESS_DIR}/python`;

interface CoverageJson {
  files?: Record<string, { summary?: { covered_lines?: unknown; num_statements?: unknown } }>;
  totals?: { covered_lines?: unknown; num_statements?: unknown };
}

const count = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : null);

/**
 * The share of the project's own Python the run executed, from `coverage json` (coverage.py's report of
 * the run, measured over the project's folder, files never imported included): statements executed of
 * all statements. Null where the text is no such report or counts no statement.
 */
export function parseCoverageJson(text: string): RunCoverage | null {
  let report: CoverageJson;
  try {
    report = JSON.parse(text) as CoverageJson;
  } catch {
    return null;
  }
  const total = count(report.totals?.num_statements);
  const executed = count(report.totals?.covered_lines);
  if (total === null || executed === null || executed > total) return null;
  const files = Object.values(report.files ?? {});
  const filesExecuted = files.filter((f) => (count(f.summary?.covered_lines) ?? 0) > 0).length;
  return runCoverage('coverage.py', 'statement', { total, executed, files: files.length, filesExecuted });
}
