import { execFileSync } from 'node:child_process';

/** Pids of live processes whose command line contains `marker` (pgrep -f), this process excluded. */
export function processesMatching(marker: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .filter((pid) => pid !== process.pid);
  } catch (err) {
    if ((err as { status?: number }).status === 1) return []; // pgrep: nothing matched
    throw err;
  }
}

export { waitFor } from './waitFor';

/** A `sleep` whose command line is unique to this test run, so pgrep finds only its processes. */
export function uniqueSleep(): { command: string; marker: string } {
  const seconds = `9${process.pid}${Math.floor(Math.random() * 1000)}`;
  return { command: `sleep ${seconds}`, marker: `sleep ${seconds}` };
}
