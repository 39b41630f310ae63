import { ApplicationFailure } from '@temporalio/common';
import type Docker from 'dockerode';
import { spawn } from 'node:child_process';
import type { ProjectFiles } from '../domain/files';
import type { SandboxLimits, SandboxLimitsInput } from '../domain/sandboxLimits';
import type { LimitClass, SandboxRecord } from '../domain/sandboxRecord';
import { resourceLimitHit, type LimitHit } from '../ecosystems/resourceLimits';
import { bindTargets } from '../infra/caches';
import { localRoot } from '../infra/diskLimit';
import { putFiles, readContainerFile } from '../infra/containerFiles';
import { removeContainerIfExists } from '../infra/docker';
import { execInContainer, type ExecOptions, type ExecResult } from '../infra/exec';
import { sandboxNetwork } from '../infra/sandboxNetwork';
import type { Settings } from '../infra/settings';
import { createOptions, mountedCaches, storedSpecOf } from './create';
import { DiskGuard } from './disk';
import { ContainerGoneError } from './errors';
import { killAllButInit } from './processes';
import { remountCachesReadOnly, writableCaches } from './seal';
import { checkSpec, type SandboxSpec, type StoredSpec } from './spec';
import type { GpuRequest } from './gpuChoice';
import { createWithGpus, machineGpus } from './gpuLeases';
import { SANDBOX_LABELS } from './names';

export interface SandboxDeps {
  docker: Docker;
  settings: Pick<Settings, 'stateDir' | 'pipIndexUrl' | 'npmRegistry' | 'mavenMirror' | 'sandboxNetwork'>;
  log?: (line: string) => void;
}

export interface SandboxExecOptions extends Omit<ExecOptions, 'env'> {
  env?: readonly string[];
  /** A named step is timed (`timings[step]`); a command killed because its container went is ContainerGoneError. */
  step?: string;
}

const BRIDGE_POLICY = 'unrestricted: Docker default bridge (asked for by the caller)';
const NO_NETWORK_POLICY = "none: loopback only; the agent reaches its model endpoint and the package indexes through envgap's relays";
const isGone = (err: unknown) => (err as { statusCode?: number }).statusCode === 404;

/**
 * One container of any protocol (docs/ecosystems.md, "Sandbox"), in the spirit of inspect_ai's
 * SandboxEnvironment: opened from a spec (limits on memory, CPUs, pids, disk and /dev/shm; the network;
 * the shared caches and when they are writable; GPUs; labels), or re-attached by name from a later
 * activity with the same protections; commands with output caps and time limits; files in and out;
 * frozen to an image; closed. The disk bound and the caches' modes hold across activities by
 * themselves (mounts); an activity holding the sandbox also watches the disk, until release or close.
 */
export class Sandbox<L extends SandboxLimitsInput = SandboxLimits> {
  readonly timings: Record<string, number> = { container: 0 };
  private sealed = false;
  private tether: NodeJS.ReadWriteStream & { destroy(): void } | null = null;

  private constructor(
    private readonly docker: Docker,
    readonly name: string,
    private readonly container: Docker.Container,
    private readonly initPid: number,
    private readonly stored: StoredSpec,
    private readonly disk: DiskGuard,
    /** The limits as the caller gave them (with whatever rides along); `resolvedLimits` has every field. */
    readonly limits: L,
  ) {}

  /** A fresh container (one of the same name is replaced), started, its disk bounded. A spec that can never open is a non-retryable SandboxSpecError. */
  static async open<L extends SandboxLimitsInput>(deps: SandboxDeps, spec: SandboxSpec<L>): Promise<Sandbox<L>> {
    let limits: SandboxLimits;
    try {
      limits = checkSpec(spec);
    } catch (err) {
      throw ApplicationFailure.nonRetryable((err as Error).message, 'SandboxSpecError');
    }
    const t = Date.now();
    const { docker } = deps;
    const network = spec.network === 'sandbox' ? await sandboxNetwork(docker, deps.settings) : spec.network === 'none' ? { name: 'none', policy: NO_NETWORK_POLICY } : { name: 'bridge', policy: BRIDGE_POLICY };
    const caches = mountedCaches(spec.caches.binds, spec.caches.mode, localRoot());
    const stored: StoredSpec = { limits, caches: { mode: caches.mode, targets: bindTargets(caches.binds) }, network: { name: network.name, policy: network.policy }, gpus: Boolean(spec.gpus), onDiskFull: spec.onDiskFull ?? 'kill' };
    await removeContainerIfExists(docker, spec.name);
    const container = spec.gpus ? await createLeased(deps, spec, limits, stored, caches.binds) : await docker.createContainer(createOptions(spec, limits, stored, caches.binds));
    spec.signal?.addEventListener('abort', () => void removeContainerIfExists(docker, spec.name).catch(() => undefined));
    try {
      const layer = await DiskGuard.mount(container, limits.disk_mb, deps.settings.stateDir, deps.log);
      await container.start();
      const initPid = (await container.inspect()).State?.Pid ?? 0;
      const disk = await DiskGuard.started(container, limits.disk_mb, layer, () => killAllButInit(container, initPid), stored.onDiskFull, deps.log);
      const s = new Sandbox<L>(docker, spec.name, container, initPid, stored, disk, spec.limits);
      s.timings.container += Date.now() - t;
      return s;
    } catch (err) {
      // Half opened: nothing of it stays (its removal unmounts the layer file system too).
      await removeContainerIfExists(docker, spec.name).catch(() => undefined);
      throw err;
    }
  }

  /**
   * A running sandbox opened by an earlier activity (of this instance, on this worker), with the
   * protections it was opened with: ContainerGoneError where it is gone or stopped, an Error where the
   * container is no sandbox.
   */
  static async attach(deps: SandboxDeps, name: string): Promise<Sandbox<SandboxLimits>> {
    const container = deps.docker.getContainer(name);
    let info: Docker.ContainerInspectInfo;
    try {
      info = await container.inspect();
    } catch (err) {
      if (isGone(err)) throw new ContainerGoneError(`the sandbox ${name} is gone`);
      throw err;
    }
    if (!info.State?.Running) throw new ContainerGoneError(`the sandbox ${name} is gone (${info.State?.Status ?? 'not running'})`);
    const stored = storedSpecOf(info.Config?.Labels);
    if (!stored) throw new Error(`the container ${name} is not a sandbox (no readable envgap.sandbox label)`);
    // A worker lost while an agent ran offline (below) left the container cut off: its network back.
    const net = stored.network.name;
    if (net !== 'none' && !info.NetworkSettings?.Networks?.[net]) await connectTo(deps.docker, net, name);
    const initPid = info.State.Pid ?? 0;
    const disk = DiskGuard.attached(container, info, stored.limits.disk_mb, () => killAllButInit(container, initPid), stored.onDiskFull ?? 'kill');
    const s = new Sandbox<SandboxLimits>(deps.docker, name, container, initPid, stored, disk, stored.limits);
    s.sealed = stored.caches.mode !== 'install-only' || writableCaches(info, initPid, stored.caches.targets).length === 0;
    return s;
  }

  get resolvedLimits(): SandboxLimits {
    return this.stored.limits;
  }

  get diskMb(): number {
    return this.stored.limits.disk_mb;
  }

  /** What confines this container, as results record it. */
  get record(): SandboxRecord {
    const mode = this.stored.caches.mode;
    const caches = mode === 'install-only' ? 'read-only-during-run' : mode;
    return { network: this.stored.network.name, policy: this.stored.network.policy, ...this.stored.limits, disk: this.disk.mode, caches, gpus: this.stored.gpus, ...(this.stored.gpuIds ? { gpu_ids: this.stored.gpuIds } : {}) };
  }

  /**
   * `work` with the container cut off its network (loopback stays), reconnected after whatever `work`
   * does (and by `attach` where this process died first): an agent's call in a protocol's container,
   * whose only ways out are then envgap's relays. A sandbox opened with network `none` just runs `work`.
   */
  async offline<T>(work: () => Promise<T>): Promise<T> {
    const net = this.stored.network.name;
    if (net === 'none') return work();
    await this.docker.getNetwork(net).disconnect({ Container: this.name, Force: true });
    try {
      return await work();
    } finally {
      await connectTo(this.docker, net, this.name).catch((err) => {
        if (!isGone(err)) throw err;
      });
    }
  }

  /**
   * A command in the container, judged by its main process, under its time limit, its output capped
   * (src/infra/docker.ts). A command's failure is the project's only while the container still runs: one
   * killed because its container was removed (a newer attempt, a cleanup) is ContainerGoneError.
   */
  async exec(cmd: string[], o: SandboxExecOptions): Promise<ExecResult> {
    const { step, ...opts } = o;
    let r: ExecResult;
    try {
      r = await execInContainer(this.container, cmd, { ...opts, env: opts.env ? [...opts.env] : undefined });
    } catch (err) {
      await this.assertRunning(step ?? 'command');
      throw err;
    }
    if (step) this.timings[step] = (this.timings[step] ?? 0) + r.durationMs;
    if (r.exitCode !== 0) await this.assertRunning(step ?? 'command');
    return r;
  }

  private async assertRunning(step: string): Promise<void> {
    let running = false;
    try {
      running = Boolean((await this.container.inspect()).State?.Running);
    } catch (err) {
      if (!isGone(err)) throw err;
    }
    if (!running) throw new ContainerGoneError(`container ${this.name} stopped or was removed during the ${step} step (superseded by a newer attempt, cancelled, or cleaned up)`);
  }

  /** A short look of the harness's own: its output, or null where it failed. Not timed, never the project's failure. */
  async probe(cmd: string[], timeoutS = 10): Promise<string | null> {
    const r = await execInContainer(this.container, cmd, { timeoutS, workdir: '/' });
    return r.exitCode === 0 ? r.output : null;
  }

  /** The container's init as the host sees it (0 where unknown), for looks from the host. */
  get hostInitPid(): number {
    return this.initPid;
  }

  get containerId(): string {
    return this.container.id;
  }

  private async timed<T>(work: () => Promise<T>): Promise<T> {
    const t = Date.now();
    try {
      return await work();
    } finally {
      this.timings.container += Date.now() - t;
    }
  }

  /** Files into `dir` (created where missing). */
  put(dir: string, files: ProjectFiles): Promise<void> {
    return this.timed(() => putFiles(this.container, dir, files));
  }

  /** A tar archive unpacked into an existing folder of the container (an agent's kept session). */
  putArchive(dir: string, archive: Buffer): Promise<void> {
    return this.timed(async () => {
      await this.container.putArchive(archive, { path: dir });
    });
  }

  /** A folder of this machine into an existing folder of the container (a tar of it; `.git` left out). */
  copyDir(hostDir: string, dir: string): Promise<void> {
    return this.timed(async () => {
      const tar = spawn('tar', ['-C', hostDir, '--exclude=./.git', '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
      await this.container.putArchive(tar.stdout, { path: dir });
    });
  }

  /** One file out of the container (null where absent), at most `maxBytes`. */
  readFile(path: string, maxBytes?: number): Promise<Buffer | null> {
    return this.timed(() => readContainerFile(this.container, path, maxBytes));
  }

  async readText(path: string): Promise<string | null> {
    const b = await this.readFile(path);
    return b === null ? null : b.toString('utf8');
  }

  /** Kills every process but the container's init and its keeper (src/sandbox/processes.ts). */
  killAllButInit(): Promise<number> {
    return killAllButInit(this.container, this.initPid);
  }

  /**
   * Before the program runs (`install-only` caches): whatever the install steps left running is killed,
   * and the cache mounts are remounted read-only and checked from the host (src/sandbox/seal.ts).
   * `afterKill` runs once the leftovers are killed, while the mounts are remounted (the service watch's
   * baseline look), or at once where there is nothing to seal. Idempotent.
   */
  async sealForRun(afterKill: () => Promise<void> = async () => undefined): Promise<void> {
    if (this.sealed || this.stored.caches.targets.length === 0) return afterKill();
    const t = Date.now();
    await this.killAllButInit();
    const remounting = remountCachesReadOnly(this.container, this.name, this.initPid, this.stored.caches.targets);
    remounting.catch(() => undefined);
    // One turn of the event loop first, so that the remount's request to Docker is sent before a look
    // that reads synchronously (the host's /proc) takes the thread.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await afterKill();
    await remounting;
    this.sealed = true;
    this.timings.container += Date.now() - t;
  }

  /** Whether the disk was seen full while this process held the sandbox, or is full now. */
  diskLimitHit(): Promise<boolean> {
    return this.disk.hit();
  }

  /** OOMKilled as Docker reports it (never set on cgroup v1 with Docker 20.10; the exec's counters tell). */
  async oomKilled(): Promise<boolean> {
    return Boolean((await this.container.inspect()).State?.OOMKilled);
  }

  /**
   * The limit a command reached, with a line saying so: memory (a kill while it ran, from the cgroup's
   * counters), else a full disk where it failed (a write refused is what fails a command there), else
   * forks refused at the pids limit while it ran.
   */
  async limitHit(r: ExecResult, who = 'the command'): Promise<LimitHit | null> {
    const dockerOomKilled = r.exitCode === 137 && (await this.oomKilled().catch(() => false));
    const hit = resourceLimitHit({ ...r, dockerOomKilled }, this.resolvedLimits, who);
    if (hit?.errorClass === 'MemoryLimit') return hit;
    if (r.exitCode !== 0 && (await this.diskLimitHit())) {
      return { errorClass: 'DiskLimit', note: `envgap: ${who} hit the container's disk limit (${this.diskMb} MiB, disk_mb; ${this.disk.mode}): writes failed (no space left on device)` };
    }
    return hit;
  }

  /** The limits the container reached in its life so far: its cgroup's counters (a look of their own) and its disk. */
  async limitsHit(): Promise<LimitClass[]> {
    // The counters are the container's, over its whole life: any command's report has them.
    const r = await execInContainer(this.container, ['true'], { timeoutS: 30, workdir: '/' }).catch(() => null);
    const c = r?.counters?.after;
    const out: LimitClass[] = [];
    if ((c?.oomKills ?? 0) > 0) out.push('MemoryLimit');
    if ((c?.pidsLimitHits ?? 0) > 0) out.push('PidsLimit');
    if (await this.diskLimitHit()) out.push('DiskLimit');
    return out;
  }

  /** The container as an image (paused meanwhile); its labels go with it. Returns the image id. */
  async commit(repo: string, tag: string): Promise<string> {
    return this.timed(async () => ((await this.container.commit({ repo, tag, pause: true })) as { Id: string }).Id);
  }

  /**
   * Ties the container's life to this process: a `cat` on a standard input this process holds open; when
   * the process dies (a SIGKILLed worker), Docker closes it, and every process of the container is
   * killed (the keeper too, so the container stops). For a sandbox used by one activity only (an
   * agent's call), whose processes must not outlive the worker that started them.
   */
  async dieWithThisProcess(): Promise<void> {
    const exec = await this.container.exec({ Cmd: ['sh', '-c', 'cat >/dev/null; kill -9 -1'], AttachStdin: true, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: true });
    stream.on('error', () => undefined);
    stream.resume();
    this.tether = stream;
  }

  /** Lets go of the container without removing it (a later activity attaches): the disk watch stops. */
  release(): void {
    this.disk.stop();
  }

  /**
   * Removes the container. If it was already gone, or being removed, someone else removed it while the
   * steps ran (a newer attempt, a cancellation, a cleanup): ContainerGoneError, as what the steps saw
   * is not the project's doing.
   */
  async close(): Promise<void> {
    this.disk.stop();
    this.tether?.destroy();
    const t = Date.now();
    let ours = true;
    try {
      ours = (await this.container.inspect()).State?.Status !== 'removing';
    } catch (err) {
      if (!isGone(err)) throw err;
      ours = false;
    }
    await removeContainerIfExists(this.docker, this.name);
    this.timings.container += Date.now() - t;
    if (!ours) throw new ContainerGoneError(`container ${this.name} was removed while its steps ran (superseded by a newer attempt, cancelled, or cleaned up)`);
  }
}

/** The container on the network again; already on it is fine. */
async function connectTo(docker: Docker, network: string, container: string): Promise<void> {
  try {
    await docker.getNetwork(network).connect({ Container: container });
  } catch (err) {
    const msg = String((err as Error).message ?? '');
    if ((err as { statusCode?: number }).statusCode === 403 && /already|exists/i.test(msg)) return;
    throw err;
  }
}

/** A container with the GPUs leased to its instance (gpuLeases.ts); `stored` learns which. */
async function createLeased(deps: SandboxDeps, spec: SandboxSpec<SandboxLimitsInput>, limits: SandboxLimits, stored: StoredSpec, cacheBinds: string[]): Promise<Docker.Container> {
  const request: GpuRequest = spec.gpus === true || spec.gpus === undefined || spec.gpus === false ? { count: 'all', share: false } : spec.gpus;
  const instanceId = spec.labels[SANDBOX_LABELS.instance] ?? spec.name;
  const { container, gpus } = await createWithGpus(deps.docker, {
    name: spec.name,
    instanceId,
    request,
    machine: await machineGpus(),
    create: (ids) => deps.docker.createContainer(createOptions(spec, limits, { ...stored, gpuIds: ids }, cacheBinds)),
    remove: async () => void (await removeContainerIfExists(deps.docker, spec.name)),
    signal: spec.signal,
    onWait: deps.log,
  });
  stored.gpuIds = gpus;
  return container;
}
