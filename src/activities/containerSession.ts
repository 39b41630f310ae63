import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import type { ProjectFiles } from '../domain/files';
import type { ContainerLimits } from '../domain/study';
import { execInContainer, putFiles, readContainerFile, removeContainerIfExists, type ExecResult } from '../infra/docker';

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
  /** When given, containers of earlier attempts of this instance's iteration are removed first. */
  attempt?: { instanceId: string; iteration: number; number: number };
  signal?: AbortSignal;
}

/**
 * One fresh container for one execution attempt. The containers of earlier attempts are removed first:
 * Temporal has already given up on those attempts (their heartbeats stopped), so whatever they still do
 * is wasted, and their result would be refused. The container is always removed at the end, also on
 * cancellation.
 */
export class ContainerSession {
  readonly timings: Record<string, number> = { container: 0 };
  private container!: Docker.Container;

  private constructor(private readonly o: SessionOptions) {}

  static async open(o: SessionOptions): Promise<ContainerSession> {
    const s = new ContainerSession(o);
    const t = Date.now();
    if (o.attempt) await removeEarlierAttempts(o.docker, o.attempt);
    await removeContainerIfExists(o.docker, o.name);
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
        Binds: o.binds,
        Init: true,
      },
    });
    await s.container.start();
    o.signal?.addEventListener('abort', () => void removeContainerIfExists(o.docker, o.name).catch(() => undefined));
    s.timings.container += Date.now() - t;
    return s;
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
  async exec(step: string, cmd: string[], timeoutS: number, workdir = '/work'): Promise<ExecResult> {
    let r: ExecResult;
    try {
      r = await execInContainer(this.container, cmd, { timeoutS, workdir });
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

  async readText(path: string): Promise<string | null> {
    const t = Date.now();
    const b = await readContainerFile(this.container, path);
    this.timings.container += Date.now() - t;
    return b === null ? null : b.toString('utf8');
  }

  /** OOMKilled as Docker reports it: a run killed for memory is the program's failure, not a timeout. */
  async oomKilled(): Promise<boolean> {
    const info = await this.container.inspect();
    return Boolean(info.State?.OOMKilled);
  }

  /**
   * Removes the container. If it was already gone, or being removed, someone else removed it while the
   * steps ran (a newer attempt, a cancellation, a cleanup): what the steps saw is not the project's doing.
   */
  async close(): Promise<void> {
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

async function removeEarlierAttempts(docker: Docker, a: { instanceId: string; iteration: number; number: number }): Promise<void> {
  const found = await docker.listContainers({
    all: true,
    filters: { label: [`${CONTAINER_LABELS.instance}=${a.instanceId}`, `${CONTAINER_LABELS.iteration}=${a.iteration}`] },
  });
  for (const c of found) {
    const attempt = Number(c.Labels[CONTAINER_LABELS.attempt] ?? 0);
    if (attempt < a.number) await removeContainerIfExists(docker, c.Id);
  }
}
