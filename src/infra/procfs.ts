import * as fs from 'node:fs';

/** Whether a process of this pid exists (one of another user's, or a zombie, included). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a pid still runs: it exists and is not a zombie (one that has ended and waits only for its parent's wait). */
export function pidRunning(pid: number, procRoot = '/proc'): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`${procRoot}/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
