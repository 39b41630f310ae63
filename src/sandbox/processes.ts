import type Docker from 'dockerode';

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

/**
 * Kills every process of the container but its init and the `sleep` that keeps it up: what an install
 * step left running, or a program that keeps writing at the disk limit. The container is paused
 * meanwhile, so that no listed process can exit and its pid be reused by someone else. Returns how
 * many were killed.
 */
export async function killAllButInit(container: Docker.Container, initPid: number): Promise<number> {
  await container.pause();
  let killed = 0;
  try {
    for (const p of await processes(container)) {
      if (p.pid === initPid || isKeeper(p, initPid) || !(p.pid > 0)) continue;
      try {
        process.kill(p.pid, 'SIGKILL');
        killed++;
      } catch {
        /* gone */
      }
    }
  } finally {
    await container.unpause();
  }
  return killed;
}
