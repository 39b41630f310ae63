import type Docker from 'dockerode';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseMountInfo } from '../infra/caches';
import { dockerLayerUsage, layerFsUsage, localRoot, mountLayerFs, unmountLayerFs, type DiskMode, type DiskUsage, type LayerFs } from '../infra/diskLimit';
import { putFiles } from '../infra/containerFiles';
import type { DiskFullPolicy } from './spec';

const DISK_PROBE = '.envgap-disk';

/**
 * A sandbox's disk bound (src/infra/diskLimit.ts): the layer file system, mounted before the container
 * starts and left mounted until Docker removes the container, so it holds across activities by
 * itself; or, where it cannot be made, the watchdog. While an activity holds the sandbox, the disk is
 * looked at every 2 s (5 s under the watchdog): a full disk is remembered (the failing step is
 * DiskLimit), and a program that keeps on at the limit is killed (at once under the watchdog).
 */
export class DiskGuard {
  private timer: NodeJS.Timeout | undefined;
  private fullSeen = false;
  private fullPolls = 0;

  private constructor(
    private readonly container: Docker.Container,
    readonly limitMb: number,
    private readonly layer: LayerFs | null,
    private readonly killAll: () => Promise<unknown>,
    private readonly policy: DiskFullPolicy,
  ) {}

  get mode(): DiskMode {
    return this.layer ? 'layer-fs' : 'watchdog';
  }

  /** Before the container starts: its layer onto a file system of `limitMb` (null: the watchdog will do). */
  static mount(container: Docker.Container, limitMb: number, stagingRoot: string, log?: (line: string) => void): Promise<LayerFs | null> {
    return mountLayerFs(container, limitMb, stagingRoot, (why) => log?.(`disk limit by watchdog: ${why}`));
  }

  /** Once started: what dockerd mounted must be our file system (a file put in the container shows in it), else the watchdog. */
  static async started(container: Docker.Container, limitMb: number, layer: LayerFs | null, killAll: () => Promise<unknown>, policy: DiskFullPolicy, log?: (line: string) => void): Promise<DiskGuard> {
    if (layer) {
      await putFiles(container, '/', { [DISK_PROBE]: '' });
      if (!existsSync(`${layer.upperDir}/${DISK_PROBE}`)) {
        log?.('disk limit by watchdog: dockerd did not use the layer file system');
        await unmountLayerFs(layer);
        layer = null;
      }
    }
    return new DiskGuard(container, limitMb, layer, killAll, policy).watch();
  }

  /** A running container opened earlier: the layer file system where its layer folder is still a mount point here, else the watchdog. */
  static attached(container: Docker.Container, info: Docker.ContainerInspectInfo, limitMb: number, killAll: () => Promise<unknown>, policy: DiskFullPolicy): DiskGuard {
    const data = info.GraphDriver?.Data as { UpperDir?: string } | undefined;
    let layer: LayerFs | null = null;
    if (data?.UpperDir && localRoot()) {
      const layerDir = path.dirname(data.UpperDir);
      const mounted = parseMountInfo(readFileSync('/proc/self/mountinfo', 'utf8')).some((m) => m.mountPoint === layerDir);
      if (mounted) layer = { layerDir, upperDir: data.UpperDir };
    }
    return new DiskGuard(container, limitMb, layer, killAll, policy).watch();
  }

  private watch(): this {
    let busy = false;
    this.timer = setInterval(
      () => {
        if (busy) return;
        busy = true;
        void this.check()
          .catch(() => undefined)
          .finally(() => (busy = false));
      },
      this.layer ? 2000 : 5000,
    );
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private usage(): Promise<DiskUsage> | DiskUsage {
    return this.layer ? layerFsUsage(this.layer.upperDir) : dockerLayerUsage(this.container, this.limitMb);
  }

  /**
   * One look. On the layer file system a write past the limit fails by itself; under the `kill` policy a
   * program that keeps on at the limit for three looks (about 6 s) is killed. Under the watchdog nothing
   * else stops it: it is killed at once.
   */
  private async check(): Promise<void> {
    const u = await this.usage();
    if (!u.full) {
      this.fullPolls = 0;
      return;
    }
    this.fullSeen = true;
    this.fullPolls++;
    if (!this.layer || (this.policy === 'kill' && this.fullPolls >= 3)) {
      this.fullPolls = 0;
      await this.killAll();
    }
  }

  /** Whether the disk was seen full while this process held the sandbox, or is full now. */
  async hit(): Promise<boolean> {
    if (this.fullSeen) return true;
    try {
      if ((await this.usage()).full) this.fullSeen = true;
    } catch {
      /* the container is gone */
    }
    return this.fullSeen;
  }
}
