import * as fs from 'node:fs';
import type Docker from 'dockerode';
import { pidRunning } from '../infra/procfs';

interface Proc {
  pid: number;
  ppid: number;
  cmd: string;
}

/** The container's processes by host pid, from Docker's view (`docker top`). */
async function processes(container: Docker.Container): Promise<Proc[]> {
  const top = (await container.top()) as { Titles?: string[]; Processes?: string[][] };
  const pidAt = top.Titles?.indexOf('PID') ?? -1;
  const ppidAt = top.Titles?.indexOf('PPID') ?? -1;
  const cmdAt = top.Titles?.indexOf('CMD') ?? -1;
  return (top.Processes ?? []).map((p) => ({ pid: Number(p[pidAt]), ppid: Number(p[ppidAt]), cmd: cmdAt >= 0 ? String(p[cmdAt]) : '' }));
}

/**
 * The `sleep infinity` that keeps the container up: init's child running it. Looked up when needed,
 * not at start, when it may not have been started yet (under load it often is not).
 */
function isKeeper(p: Proc, initPid: number): boolean {
  return p.ppid === initPid && /^sleep infinity$/.test(p.cmd.trim());
}

/** Whether a /proc/PID/cgroup text puts the process in the container's cgroup (v1 or v2, cgroupfs or systemd driver). */
export function inContainerCgroup(cgroupText: string, containerId: string): boolean {
  return cgroupText.split('\n').some((line) => line.split(':').slice(2).join(':').includes(containerId));
}

function killable(ps: Proc[], initPid: number): Proc[] {
  return ps.filter((p) => p.pid > 0 && p.pid !== initPid && !isKeeper(p, initPid));
}

function kill(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false; // gone
  }
}

/**
 * Kills every process of the container but its init and the `sleep` that keeps it up: what an install
 * step left running, or a program that keeps writing at the disk limit. Returns how many were killed.
 *
 * The container is paused meanwhile, so that no listed process can exit and its pid be reused by
 * someone else, nor fork a child the list misses. The freezer can refuse ("unable to freeze") while a
 * task sleeps uninterruptibly, as a writer on a full disk of a busy machine does; then each pid is
 * killed only while /proc says it is still in this container's cgroup, and the list is read again
 * until nothing killable is left (a child forked after a listing is in the next).
 */
export async function killAllButInit(container: Docker.Container, initPid: number, procRoot = '/proc'): Promise<number> {
  let frozen = true;
  try {
    await container.pause();
  } catch {
    frozen = false;
  }
  if (frozen) {
    try {
      return killable(await processes(container), initPid).filter((p) => kill(p.pid)).length;
    } finally {
      await container.unpause();
    }
  }
  // A Container got by name has the name as its id; the cgroup paths hold the full id.
  const id = (await container.inspect()).Id;
  const killed = new Set<number>();
  for (let round = 0; round < 20; round++) {
    const left = killable(await processes(container), initPid);
    if (left.length === 0) break;
    const now = left.filter((p) => {
      let cgroup: string;
      try {
        cgroup = fs.readFileSync(`${procRoot}/${p.pid}/cgroup`, 'utf8');
      } catch {
        return false; // gone
      }
      return inContainerCgroup(cgroup, id) && kill(p.pid);
    });
    for (const p of now) killed.add(p.pid);
    await gone(now.map((p) => p.pid), procRoot);
  }
  return killed.size;
}

/** Waits (at most 10 s: a task in uninterruptible sleep dies when it wakes) until the pids have exited or are zombies. */
async function gone(pids: number[], procRoot: string): Promise<void> {
  for (let i = 0; i < 200 && pids.some((pid) => pidRunning(pid, procRoot)); i++) await new Promise((r) => setTimeout(r, 50));
}
