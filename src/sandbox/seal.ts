import type Docker from 'dockerode';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { parseMountInfo, writableCacheMounts, type MountEntry } from '../infra/caches';
import { ContainerGoneError } from './errors';

const runHost = promisify(execFile);

/** The cache mounts of the container still writable, read from the host in /proc/PID/mountinfo (by the volumes' folders and the cache paths). */
export function writableCaches(info: Docker.ContainerInspectInfo, initPid: number, targets: readonly string[]): MountEntry[] {
  const volumeDirs = (info.Mounts ?? []).filter((m) => targets.includes(m.Destination)).map((m) => m.Source);
  return writableCacheMounts(parseMountInfo(readFileSync(`/proc/${initPid}/mountinfo`, 'utf8')), volumeDirs, targets);
}

/**
 * Remounts the cache mounts read-only in the container's mount namespace (by the host's mount binary,
 * never one of the container's), then checks from the host. Throws (a harness fault: the program must
 * not run) if any is still writable.
 */
export async function remountCachesReadOnly(container: Docker.Container, name: string, initPid: number, targets: readonly string[]): Promise<void> {
  const info = await container.inspect();
  if (!existsSync(`/proc/${initPid}/mountinfo`) || !info.State?.Running) {
    throw new ContainerGoneError(`container ${name} stopped while the caches were being sealed`);
  }
  const ns = `/proc/${initPid}/ns/mnt`;
  for (const target of targets) {
    await runHost('mount', ['-n', '-N', ns, '-o', 'remount,bind,ro', target]).catch(() => undefined);
  }
  const left = writableCaches(info, initPid, targets);
  if (left.length > 0) throw new Error(`could not make the shared caches read-only before the run: ${left.map((m) => m.mountPoint).join(', ')} still writable`);
}
