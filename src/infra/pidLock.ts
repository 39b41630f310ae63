import * as fs from 'node:fs';
import * as path from 'node:path';
import { pidAlive } from './procfs';

/** Lock files that name their holder (pid, start time, command line), taken over when the holder is dead. */

export interface LockHolder {
  pid: number;
  startTime: string | null;
  command: string;
  since: string;
}

/** The kernel's start time of a process (clock ticks since boot), so that a reused pid is not taken for the holder. */
function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function processAlive(holder: LockHolder): boolean {
  if (!pidAlive(holder.pid)) return false;
  const now = processStartTime(holder.pid);
  return holder.startTime === null || now === null || now === holder.startTime;
}

function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
    return typeof h.pid === 'number' ? h : null;
  } catch {
    return null;
  }
}

export function describeHolder(h: LockHolder): string {
  return `pid ${h.pid} (${h.command}, since ${h.since})`;
}

/**
 * Takes the lock file `file` for this process (O_EXCL create holding pid, start time and command line).
 * A lock whose holder is dead is taken over; a live holder is returned instead. Released by `release()`
 * and on exit; after a SIGKILL the next taker finds the holder dead.
 */
export function tryPidLock(file: string): { release(): void } | { holder: LockHolder } {
  const me: LockHolder = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    command: process.argv.slice(1).map((a) => path.basename(a)).join(' ').slice(0, 200) || 'node',
    since: new Date().toISOString(),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      fs.writeSync(fd, JSON.stringify(me));
      fs.closeSync(fd);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        process.removeListener('exit', release);
        if (readHolder(file)?.pid === me.pid) fs.rmSync(file, { force: true });
      };
      process.on('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (holder && processAlive(holder)) return { holder };
    if (!holder) {
      // Being written right now, or left empty by a crash between create and write.
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 2000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        continue;
      }
    }
    // A dead holder: take the lock over through a rename, so that two takers never both delete a fresh lock.
    const stale = `${file}.stale-${process.pid}`;
    try {
      fs.renameSync(file, stale);
      const moved = readHolder(stale);
      if (moved && processAlive(moved)) fs.renameSync(stale, file); // someone took it just now: put it back
      else fs.rmSync(stale, { force: true });
    } catch {
      // another process moved it first
    }
  }
  const holder = readHolder(file);
  if (holder) return { holder };
  throw new Error(`could not take the lock file ${file}`);
}
