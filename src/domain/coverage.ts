import { z } from 'zod';

/**
 * How much of the project's own code the traced run executed (issue 26 item 2), kept beside D3 so that a
 * phantom can be read against how much of the program ran. `unit`: V8 (JavaScript) is counted in lines
 * of code (non-blank, not comment-only), coverage.py (Python) in statements, JaCoCo (Java) and gcov (C++,
 * from a separate instrumented build and run) in lines with code. `files`: the project's source files counted (outside node_modules and the venv; Java: those of
 * target/classes), `files_executed`: those with any unit
 * executed. `share` is executed / total, rounded to three places.
 */
export const RunCoverage = z.object({
  tool: z.enum(['v8', 'coverage.py', 'jacoco', 'gcov']),
  unit: z.enum(['line', 'statement']),
  total: z.number().int().nonnegative(),
  executed: z.number().int().nonnegative(),
  share: z.number().min(0).max(1),
  files: z.number().int().nonnegative(),
  files_executed: z.number().int().nonnegative(),
});
export type RunCoverage = z.infer<typeof RunCoverage>;

/** A coverage from its counts; null where the project has no code of the kind counted (nothing to measure). */
export function runCoverage(tool: RunCoverage['tool'], unit: RunCoverage['unit'], counts: { total: number; executed: number; files: number; filesExecuted: number }): RunCoverage | null {
  if (counts.total === 0) return null;
  return {
    tool,
    unit,
    total: counts.total,
    executed: counts.executed,
    share: Math.round((counts.executed / counts.total) * 1000) / 1000,
    files: counts.files,
    files_executed: counts.filesExecuted,
  };
}

/** `62% of the project's own code (31 of 50 lines, 1 of 2 files; V8)`. */
export function describeCoverage(c: RunCoverage): string {
  const tool = c.tool === 'v8' ? 'V8' : c.tool === 'jacoco' ? 'JaCoCo' : c.tool;
  return `${Math.round(c.share * 100)}% of the project's own code (${c.executed} of ${c.total} ${c.unit}s, ${c.files_executed} of ${c.files} files; ${tool})`;
}
