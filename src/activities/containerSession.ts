import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import type { ProjectFiles } from '../domain/files';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { ContainerLimits } from '../domain/study';
import { bindTargets, parseMountInfo, writableCacheMounts } from '../infra/caches';
import { SERVICE_PROBE } from './runners/serviceWatch';
import { hostServiceLook } from './runners/hostLook';
import { dockerLayerUsage, layerFsUsage, localRoot, mountLayerFs, unmountLayerFs, type DiskMode, type DiskUsage, type LayerFs } from '../infra/diskLimit';
import { execInContainer, putFiles, readContainerFile, removeContainerIfExists, type ExecOptions, type ExecResult } from '../infra/docker';

const runHost = promisify(execFile);

/** What limits a session's container beyond memory, CPUs and pids; recorded with each result. */
export interface SessionSandbox {
  disk: DiskMode | 'none';
  /** `read-only-during-run`: the shared caches are writable in the install steps only; `none`: not mounted. */
  caches: 'read-only-during-run' | 'none' | 'writable';
}

/** ContainerLimits.disk_mb where the limits predate it. */
export const DEFAULT_DISK_MB = 10240;
const DISK_PROBE = '.envgap-disk';

/**
 * Docker-safe, deterministic name: the same attempt of an instance's iteration always gets the same
 * container, and two attempts never share one, so a retry cannot collide with an attempt still alive.
 */
export function containerName(instanceId: string, iteration: number, attempt = 1): string {
  const slug = instanceId.replace(/[^a-zA-Z0-9_.-]+/g, '.').slice(0, 150);
  const hash = createHash('sha256').update(instanceId).digest('hex').slice(0, 8);
  return `envgap-${slug}-${hash}-i${iteration}-a${attempt}`;
}

/** The labels that tie a container to its instance, iteration and attempt (`envgap cleanup` reads the first). */
export const CONTAINER_LABELS = { instance: 'envgap.instance', iteration: 'envgap.iteration', attempt: 'envgap.attempt' } as const;

/** Thrown when an attempt's container was removed under it: a newer attempt superseded it, or someone cleaned up. */
export class ContainerGoneError extends Error {
  override name = 'ContainerGoneError';
}

export interface SessionOptions {
  docker: Docker;
  image: string;
  name: string;
  limits: ContainerLimits;
  env: string[];
  binds: string[];
  labels: Record<string, string>;
  signal?: AbortSignal;
  /** The Docker network to join (the sandbox network); Docker's default bridge when absent. */
  network?: string;
  /** Bound the container's disk to `limits.disk_mb`; the layer file system's image goes under `stagingRoot`. */
  disk?: { stagingRoot: string; log?: (line: string) => void };
  /**
   * Shared cache binds, writable during the install steps and remounted read-only by sealForRun before
   * the program runs. Where this process cannot remount them (not root on the Docker host), they are
   * not mounted at all.
   */
  caches?: string[];
}

/**
 * One fresh container for one execution attempt (the caller removes earlier attempts' containers
 * first: removeEarlierAttempts). The container is always removed at the end, also on cancellation.
 */
export class ContainerSession {
  readonly timings: Record<string, number> = { container: 0 };
  readonly sandbox: SessionSandbox = { disk: 'none', caches: 'none' };
  private container!: Docker.Container;
  private initPid = 0;
  private layerFs: LayerFs | null = null;
  private cacheTargets: string[] = [];
  private sealed = false;
  private diskTimer: NodeJS.Timeout | undefined;
  private diskFullSeen = false;
  private diskFullPolls = 0;

  private constructor(private readonly o: SessionOptions) {}

  get diskMb(): number {
    return (this.o.limits as { disk_mb?: number }).disk_mb ?? DEFAULT_DISK_MB;
  }

  static async open(o: SessionOptions): Promise<ContainerSession> {
    const s = new ContainerSession(o);
    const t = Date.now();
    await removeContainerIfExists(o.docker, o.name);
    const local = localRoot();
    const caches = o.caches && o.caches.length > 0 ? (local ? o.caches : []) : [];
    s.cacheTargets = bindTargets(caches);
    s.sandbox.caches = caches.length > 0 ? 'read-only-during-run' : 'none';
    s.container = await o.docker.createContainer({
      name: o.name,
      Image: o.image,
      Cmd: ['sleep', 'infinity'],
      WorkingDir: '/work',
      Env: o.env,
      Labels: o.labels,
      HostConfig: {
        CapAdd: ['SYS_PTRACE'],
        Memory: o.limits.memory_mb * 1024 * 1024,
        MemorySwap: o.limits.memory_mb * 1024 * 1024,
        NanoCpus: Math.round(o.limits.cpus * 1e9),
        PidsLimit: o.limits.pids,
        Binds: [...o.binds, ...caches],
        Init: true,
        ...(o.network ? { NetworkMode: o.network } : {}),
      },
    });
    o.signal?.addEventListener('abort', () => void removeContainerIfExists(o.docker, o.name).catch(() => undefined));
    if (o.disk) s.layerFs = await mountLayerFs(s.container, s.diskMb, o.disk.stagingRoot, (why) => o.disk?.log?.(`disk limit by watchdog: ${why}`));
    await s.container.start();
    const info = await s.container.inspect();
    s.initPid = info.State?.Pid ?? 0;
    if (o.disk) {
      if (s.layerFs) {
        // What dockerd mounted must be our file system: a file put in the container shows in it.
        await putFiles(s.container, '/', { [DISK_PROBE]: '' });
        if (!existsSync(`${s.layerFs.upperDir}/${DISK_PROBE}`)) {
          o.disk.log?.('disk limit by watchdog: dockerd did not use the layer file system');
          await unmountLayerFs(s.layerFs);
          s.layerFs = null;
        }
      }
      s.sandbox.disk = s.layerFs ? 'layer-fs' : 'watchdog';
      s.startDiskWatch();
    }
    s.timings.container += Date.now() - t;
    return s;
  }

  /** The container's processes by host pid, from Docker's view (`docker top`). */
  private async processes(): Promise<Array<{ pid: number; ppid: number; cmd: string }>> {
    const top = (await this.container.top()) as { Titles?: string[]; Processes?: string[][] };
    const pidAt = top.Titles?.indexOf('PID') ?? -1;
    const ppidAt = top.Titles?.indexOf('PPID') ?? -1;
    const cmdAt = top.Titles?.indexOf('CMD') ?? -1;
    return (top.Processes ?? []).map((p) => ({ pid: Number(p[pidAt]), ppid: Number(p[ppidAt]), cmd: cmdAt >= 0 ? String(p[cmdAt]) : '' }));
  }

  /**
   * The `sleep infinity` that keeps the container up: init's child running it. Looked up when needed,
   * not at start, when it may not have been started yet (under load it often is not).
   */
  private isKeeper(p: { pid: number; ppid: number; cmd: string }): boolean {
    return p.ppid === this.initPid && /^sleep infinity$/.test(p.cmd.trim());
  }

  /**
   * Kills every process of the container but its init and the `sleep` that keeps it up: what an install
   * step left running, or a program that keeps writing at the disk limit. The container is paused
   * meanwhile, so that no listed process can exit and its pid be reused by someone else.
   */
  async killAllButInit(): Promise<number> {
    await this.container.pause();
    let killed = 0;
    try {
      for (const p of await this.processes()) {
        if (p.pid === this.initPid || this.isKeeper(p) || !(p.pid > 0)) continue;
        try {
          process.kill(p.pid, 'SIGKILL');
          killed++;
        } catch {
          /* gone */
        }
      }
    } finally {
      await this.container.unpause();
    }
    return killed;
  }

  /**
   * Before the program runs: whatever the install steps left running is killed, and the shared cache
   * mounts are remounted read-only in the container's mount namespace (by the host's mount binary,
   * never one of the container's), then checked from the host in /proc/PID/mountinfo. Throws (a harness
   * fault: the program must not run) if any cache mount is still writable. Idempotent.
   * `afterKill` runs once the leftovers are killed, while the mounts are remounted (the service
   * watch's baseline look, which needs the leftovers gone and not the remount), or at once where
   * there is nothing to seal.
   */
  async sealForRun(afterKill: () => Promise<void> = async () => undefined): Promise<void> {
    if (this.sealed || this.cacheTargets.length === 0) return afterKill();
    const t = Date.now();
    await this.killAllButInit();
    const remounting = this.remountCachesReadOnly();
    remounting.catch(() => undefined);
    // One turn of the event loop first, so that the remount's request to Docker is sent before a look
    // that reads synchronously (the host's /proc) takes the thread: the look then costs no time of its own.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await afterKill();
    await remounting;
    this.sealed = true;
    this.timings.container += Date.now() - t;
  }

  private async remountCachesReadOnly(): Promise<void> {
    const info = await this.container.inspect();
    if (!existsSync(`/proc/${this.initPid}/mountinfo`) || !info.State?.Running) {
      throw new ContainerGoneError(`container ${this.o.name} stopped while the caches were being sealed`);
    }
    const ns = `/proc/${this.initPid}/ns/mnt`;
    for (const target of this.cacheTargets) {
      await runHost('mount', ['-n', '-N', ns, '-o', 'remount,bind,ro', target]).catch(() => undefined);
    }
    const volumeDirs = (info.Mounts ?? []).filter((m) => this.cacheTargets.includes(m.Destination)).map((m) => m.Source);
    const left = writableCacheMounts(parseMountInfo(readFileSync(`/proc/${this.initPid}/mountinfo`, 'utf8')), volumeDirs, this.cacheTargets);
    if (left.length > 0) throw new Error(`could not make the shared caches read-only before the run: ${left.map((m) => m.mountPoint).join(', ')} still writable`);
  }

  private startDiskWatch(): void {
    const everyMs = this.layerFs ? 2000 : 5000;
    let busy = false;
    this.diskTimer = setInterval(() => {
      if (busy) return;
      busy = true;
      void this.checkDisk()
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, everyMs);
    this.diskTimer.unref();
  }

  private async usage(): Promise<DiskUsage> {
    return this.layerFs ? layerFsUsage(this.layerFs.upperDir) : dockerLayerUsage(this.container, this.diskMb);
  }

  /**
   * One look at the disk. Full: remembered (the step that fails is classed DiskLimit). On the layer file
   * system a write past the limit fails by itself; a program that keeps on at the limit for three looks
   * (about 6 s) is killed. Under the watchdog nothing else stops it: it is killed at once.
   */
  private async checkDisk(): Promise<void> {
    const u = await this.usage();
    if (!u.full) {
      this.diskFullPolls = 0;
      return;
    }
    this.diskFullSeen = true;
    this.diskFullPolls++;
    if (!this.layerFs || this.diskFullPolls >= 3) {
      this.diskFullPolls = 0;
      await this.killAllButInit();
    }
  }

  /** Whether the container reached its disk limit at any time (or is at it now). */
  async diskLimitHit(): Promise<boolean> {
    if (this.diskFullSeen || !this.o.disk) return this.diskFullSeen;
    try {
      if ((await this.usage()).full) this.diskFullSeen = true;
    } catch {
      /* the container is gone */
    }
    return this.diskFullSeen;
  }

  /** The container's limits (memory, CPUs, pids, time), as it was opened with. */
  get limits(): ContainerLimits {
    return this.o.limits;
  }

  async put(dir: string, files: ProjectFiles): Promise<void> {
    const t = Date.now();
    await putFiles(this.container, dir, files);
    this.timings.container += Date.now() - t;
  }

  /**
   * A command's failure is the project's only while the container still runs: a command killed because
   * its container was removed (a newer attempt, a cleanup) is the harness's fault, thrown as such.
   */
  async exec(
    step: string,
    cmd: string[],
    timeoutS: number,
    workdir = '/work',
    main: ExecOptions['main'] = 'command',
    onOutput?: () => void,
    io: Pick<ExecOptions, 'env' | 'stdinFile'> = {},
  ): Promise<ExecResult> {
    let r: ExecResult;
    try {
      r = await execInContainer(this.container, cmd, { timeoutS, workdir, main, onOutput, ...io });
    } catch (err) {
      await this.assertRunning(step);
      throw err;
    }
    this.timings[step] = (this.timings[step] ?? 0) + r.durationMs;
    if (r.exitCode !== 0) await this.assertRunning(step);
    return r;
  }

  private async assertRunning(step: string): Promise<void> {
    let running = false;
    try {
      running = Boolean((await this.container.inspect()).State?.Running);
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode !== 404) throw err;
    }
    if (!running) throw new ContainerGoneError(`container ${this.o.name} stopped or was removed during the ${step} step (superseded by a newer attempt, cancelled, or cleaned up)`);
  }

  /**
   * A short look of the harness's own while a step runs (the service watch): its output, or null where
   * it failed. Not a step: not timed, and never the project's failure.
   */
  async probe(cmd: string[], timeoutS = 10): Promise<string | null> {
    const r = await execInContainer(this.container, cmd, { timeoutS, workdir: '/' });
    return r.exitCode === 0 ? r.output : null;
  }

  /** The service watch's look: from the host where this process sees the container's init, else by an exec. */
  async serviceLook(): Promise<string | null> {
    return hostServiceLook(this.initPid, this.container.id) ?? this.probe(SERVICE_PROBE);
  }

  async readText(path: string): Promise<string | null> {
    const t = Date.now();
    const b = await readContainerFile(this.container, path);
    this.timings.container += Date.now() - t;
    return b === null ? null : b.toString('utf8');
  }

  /**
   * OOMKilled as Docker reports it (never set on cgroup v1 with Docker 20.10: the cgroup's counters,
   * which every exec reports, are what tells a kill for memory; see src/ecosystems/resourceLimits.ts).
   */
  async oomKilled(): Promise<boolean> {
    const info = await this.container.inspect();
    return Boolean(info.State?.OOMKilled);
  }

  /**
   * Removes the container. If it was already gone, or being removed, someone else removed it while the
   * steps ran (a newer attempt, a cancellation, a cleanup): what the steps saw is not the project's doing.
   */
  async close(): Promise<void> {
    if (this.diskTimer) clearInterval(this.diskTimer);
    const t = Date.now();
    let ours = true;
    try {
      ours = (await this.container.inspect()).State?.Status !== 'removing';
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode !== 404) throw err;
      ours = false;
    }
    await removeContainerIfExists(this.o.docker, this.o.name);
    this.timings.container += Date.now() - t;
    if (!ours) throw new ContainerGoneError(`container ${this.o.name} was removed while its steps ran (superseded by a newer attempt, cancelled, or cleaned up)`);
  }

}

/**
 * Removes the containers of an execution's earlier attempts: Temporal has already given up on those
 * (their heartbeats stopped), so whatever they still do is wasted and their result would be refused.
 * Called before the new attempt waits for the machine, which the old one may still hold.
 */
export async function removeEarlierAttempts(docker: Docker, a: { instanceId: string; iteration: number; number: number }): Promise<void> {
  // A first attempt has none: no Docker call on the common path.
  if (a.number <= 1) return;
  const found = await docker.listContainers({
    all: true,
    filters: { label: [`${CONTAINER_LABELS.instance}=${a.instanceId}`, `${CONTAINER_LABELS.iteration}=${a.iteration}`] },
  });
  for (const c of found) {
    const attempt = Number(c.Labels[CONTAINER_LABELS.attempt] ?? 0);
    if (attempt < a.number) await removeContainerIfExists(docker, c.Id);
  }
}
