import type Docker from 'dockerode';
import { execFile } from 'node:child_process';
import { promises as fs, readlinkSync, readFileSync, statfsSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * How a container's disk is bounded (docs/ecosystems.md, "Sandbox"):
 * - `layer-fs`: the container's writable layer (everything it writes outside its volumes: /work, /tmp,
 *   /root, the venv, node_modules, target, what apt installs) lives on an ext4 file system of its own,
 *   in a sparse image file of `disk_mb`, loop-mounted over the layer's folder before the container
 *   starts. The host disk can never hold more than `disk_mb` for it; a write beyond gets ENOSPC. Docker
 *   unmounts it when it removes the container (its removal unmounts what is mounted under the layer),
 *   and the image file, already unlinked, is freed then.
 * - `watchdog`: where that cannot be done (not root on the Docker host, another storage driver), the
 *   layer's size as Docker reports it is polled and the container's processes are killed past `disk_mb`.
 *   The host disk may then overshoot by what is written between two polls.
 * Docker's own `StorageOpt: {size}` needs overlay2 on xfs with project quotas, rarely the case (not here:
 * overlay2 on ext4).
 */
export type DiskMode = 'layer-fs' | 'watchdog';

/** Whether this process runs as root in the Docker daemon's mount namespace (so that what it mounts is what dockerd sees). */
export function localRoot(pidFile = '/var/run/docker.pid'): boolean {
  try {
    if (process.getuid?.() !== 0) return false;
    const pid = readFileSync(pidFile, 'utf8').trim();
    return readlinkSync('/proc/self/ns/mnt') === readlinkSync(`/proc/${pid}/ns/mnt`);
  } catch {
    return false;
  }
}

export interface LayerFs {
  layerDir: string;
  upperDir: string;
}

/**
 * Puts a created (not yet started) overlay2 container's layer folder on a `limitMb` ext4 image. Returns
 * null (with nothing left mounted) where that cannot be done here; `why` is told the reason.
 */
export async function mountLayerFs(container: Docker.Container, limitMb: number, stagingRoot: string, why: (reason: string) => void = () => undefined): Promise<LayerFs | null> {
  if (!localRoot()) {
    why('not root in the Docker daemon mount namespace');
    return null;
  }
  const info = await container.inspect();
  const data = info.GraphDriver?.Data as { UpperDir?: string; WorkDir?: string } | undefined;
  if (info.GraphDriver?.Name !== 'overlay2' || !data?.UpperDir || !data.WorkDir || path.dirname(data.UpperDir) !== path.dirname(data.WorkDir)) {
    why(`storage driver ${info.GraphDriver?.Name} has no overlay2 layer folder`);
    return null;
  }
  const layerDir = path.dirname(data.UpperDir);
  const staging = path.join(stagingRoot, 'disks', info.Id);
  const image = `${staging}.img`;
  let stagingMounted = false;
  let layerMounted = false;
  try {
    await fs.mkdir(staging, { recursive: true });
    const fh = await fs.open(image, 'w');
    await fh.truncate(limitMb * 1024 * 1024);
    await fh.close();
    // One inode per 8 KiB (node_modules has many small files), no blocks reserved for root (the program is root).
    await run('mkfs.ext4', ['-q', '-F', '-m', '0', '-b', '4096', '-i', '8192', '-E', 'nodiscard,lazy_itable_init=1,lazy_journal_init=1', image]);
    await run('mount', ['-o', 'loop', image, staging]);
    stagingMounted = true;
    await fs.unlink(image); // held by the loop device until the last mount goes
    await fs.mkdir(path.join(staging, 'layer'));
    await run('cp', ['-a', `${layerDir}/.`, path.join(staging, 'layer')]);
    // overlayfs wants upperdir and workdir under one mount: the whole layer folder is the mount.
    await run('mount', ['--bind', path.join(staging, 'layer'), layerDir]);
    layerMounted = true;
    await run('umount', [staging]);
    stagingMounted = false;
    await fs.rmdir(staging);
    return { layerDir, upperDir: data.UpperDir };
  } catch (err) {
    why(`mounting the layer file system failed: ${(err as Error).message.split('\n')[0]}`);
    if (layerMounted) await run('umount', [layerDir]).catch(() => undefined);
    if (stagingMounted) await run('umount', ['-l', staging]).catch(() => undefined);
    await fs.rm(image, { force: true }).catch(() => undefined);
    await fs.rmdir(staging).catch(() => undefined);
    return null;
  }
}

/** Undoes mountLayerFs where dockerd turned out not to see the mount (the container's files went elsewhere). */
export async function unmountLayerFs(fsInfo: LayerFs): Promise<void> {
  await run('umount', [fsInfo.layerDir]).catch(() => undefined);
}

export interface DiskUsage {
  usedBytes: number;
  /** At (or so near that no write of note fits) the limit. */
  full: boolean;
}

/** Usage of a layer-fs layer, from its file system. */
export function layerFsUsage(upperDir: string): DiskUsage {
  const s = statfsSync(upperDir);
  const total = s.blocks * s.bsize;
  const avail = s.bavail * s.bsize;
  return { usedBytes: total - s.bfree * s.bsize, full: avail < Math.max(8 * 1024 * 1024, total * 0.01) || s.ffree < 64 };
}

/** Usage of the container's writable layer as Docker counts it (walks the layer: slow on many files). */
export async function dockerLayerUsage(container: Docker.Container, limitMb: number): Promise<DiskUsage> {
  const info = (await container.inspect({ size: true } as Docker.ContainerInspectOptions)) as { SizeRw?: number };
  const used = info.SizeRw ?? 0;
  return { usedBytes: used, full: used >= limitMb * 1024 * 1024 };
}

/**
 * What a worker killed inside mountLayerFs left: a staging file system still mounted at
 * `<stagingRoot>/disks/<container id>`. Unmounted and removed where that container no longer exists
 * (a live container's staging belongs to a process still setting it up). Returns the folders swept.
 */
export async function sweepStaleDisks(docker: Docker, stagingRoot: string, mounts = readFileSync('/proc/mounts', 'utf8')): Promise<string[]> {
  const root = path.join(stagingRoot, 'disks');
  let entries: string[];
  try {
    entries = await fs.readdir(root);
  } catch {
    return [];
  }
  const mounted = new Set(mounts.split('\n').map((l) => l.split(' ')[1]).filter((p): p is string => Boolean(p)));
  const swept: string[] = [];
  for (const entry of entries) {
    const id = entry.replace(/\.img$/, '');
    const exists = await docker.getContainer(id).inspect().then(() => true, (err: { statusCode?: number }) => err.statusCode !== 404);
    if (exists) continue;
    const dir = path.join(root, entry);
    if (mounted.has(dir)) await run('umount', ['-l', dir]).catch(() => undefined);
    await fs.rm(dir, { recursive: true, force: true });
    swept.push(dir);
  }
  return swept;
}
