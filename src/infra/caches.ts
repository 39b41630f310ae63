import { ECOSYSTEMS } from '../ecosystems/registry';

/**
 * Download caches shared by all containers (pip, npm, Maven: each ecosystem record's
 * `packageManager.caches`); what gets installed stays per container, so D2 stays honest. The caches
 * are writable during the install steps only: before the program runs, Sandbox.sealForRun
 * (src/sandbox) remounts them read-only in the container (docs/ecosystems.md, "Sandbox").
 */
export const CACHE_BINDS: string[] = Object.values(ECOSYSTEMS).flatMap((e) => e.packageManager.caches.map((c) => `${c.volume}:${c.path}`));
export const PIP_CACHE_BIND = `${ECOSYSTEMS.python.packageManager.caches[0]!.volume}:${ECOSYSTEMS.python.packageManager.caches[0]!.path}`;

/** The container paths of a list of binds (`source:target[:mode]`). */
export function bindTargets(binds: readonly string[]): string[] {
  return binds.map((b) => b.split(':')[1]!);
}

export interface MountEntry {
  mountPoint: string;
  /** The mounted folder inside its file system (for a volume: /var/lib/docker/volumes/NAME/_data). */
  root: string;
  readOnly: boolean;
}

/** /proc/PID/mountinfo, as entries (octal escapes decoded). */
export function parseMountInfo(text: string): MountEntry[] {
  const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    if (f.length < 6) continue;
    out.push({ root: unescape(f[3]!), mountPoint: unescape(f[4]!), readOnly: f[5]!.split(',').includes('ro') });
  }
  return out;
}

/**
 * The mounts of the container that are still writable and show one of the cache volumes (by their host
 * folders) or sit at one of the cache paths: empty once the caches are sealed. Looking at the volumes'
 * folders, not only at the paths, catches a cache mounted where a symlink planted at install time led.
 */
export function writableCacheMounts(entries: MountEntry[], volumeDirs: readonly string[], targets: readonly string[]): MountEntry[] {
  return entries.filter((e) => !e.readOnly && (targets.includes(e.mountPoint) || volumeDirs.some((d) => e.root === d || e.root.startsWith(`${d}/`))));
}
