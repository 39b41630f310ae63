import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import type { ProjectFiles } from '../domain/files';
import type { ContainerLimits } from '../domain/study';
import { execInContainer, putFiles, readContainerFile, removeContainerIfExists, type ExecResult } from '../infra/docker';

/** Docker-safe, deterministic name: the same instance and iteration always get the same container. */
export function containerName(instanceId: string, iteration: number): string {
  const slug = instanceId.replace(/[^a-zA-Z0-9_.-]+/g, '.').slice(0, 150);
  const hash = createHash('sha256').update(instanceId).digest('hex').slice(0, 8);
  return `envgap-${slug}-${hash}-i${iteration}`;
}

export interface SessionOptions {
  docker: Docker;
  image: string;
  name: string;
  limits: ContainerLimits;
  env: string[];
  binds: string[];
  labels: Record<string, string>;
  onTick: () => void;
  signal?: AbortSignal;
}

/**
 * One fresh container for one execution. Whatever a crashed earlier attempt left under the same
 * name is removed first; the container is always removed at the end, also on cancellation.
 */
export class ContainerSession {
  readonly timings: Record<string, number> = { container: 0 };
  private container!: Docker.Container;

  private constructor(private readonly o: SessionOptions) {}

  static async open(o: SessionOptions): Promise<ContainerSession> {
    const s = new ContainerSession(o);
    const t = Date.now();
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

  async exec(step: string, cmd: string[], timeoutS: number, workdir = '/work'): Promise<ExecResult> {
    const r = await execInContainer(this.container, cmd, { timeoutS, workdir, onTick: this.o.onTick });
    this.timings[step] = (this.timings[step] ?? 0) + r.durationMs;
    return r;
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

  async close(): Promise<void> {
    const t = Date.now();
    await removeContainerIfExists(this.o.docker, this.o.name);
    this.timings.container += Date.now() - t;
  }
}
