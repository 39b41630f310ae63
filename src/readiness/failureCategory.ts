import type { FailureCategory } from '../domain/readiness';

export interface ProbeRun {
  exitCode: number | null;
  timedOut: boolean;
  /** Killed for memory (the container's OOM counter moved, or Docker says OOMKilled). */
  oomKilled: boolean;
  output: string;
}

const RULES: [FailureCategory, RegExp][] = [
  ['oom', /CUDA out of memory|OutOfMemoryError|torch\.cuda\.OutOfMemoryError|MemoryError\b|Killed\s*$/m],
  ['deps', /ModuleNotFoundError|ImportError|No module named|cannot import name|DLL load failed|undefined symbol|libcudart\.so|lib\w+\.so[.\d]*: cannot open shared object file|pkg_resources\.DistributionNotFound|requires? .* but .* is installed/],
  ['entrypoint_not_found', /can't open file .*\[Errno 2\]|No such file or directory: '[^']*\.(?:py|sh)'|: not found$|command not found|No such file or directory$/m],
  ['data', /FileNotFoundError|No such file or directory|does not exist|checkpoint|\.ckpt|\.pth\b|dataset/i],
];

/**
 * Upstream's failure category of a failed probe, from its exit and output: timeout, oom, then the
 * first rule that matches (deps before entrypoint_not_found before data), else runtime; exit 127 is a
 * command that was not found.
 */
export function failureCategory(run: ProbeRun): FailureCategory {
  if (run.timedOut) return 'timeout';
  if (run.oomKilled) return 'oom';
  for (const [category, pattern] of RULES) if (pattern.test(run.output)) return category;
  if (run.exitCode === 127) return 'entrypoint_not_found';
  return run.exitCode === null ? 'unknown' : 'runtime';
}
