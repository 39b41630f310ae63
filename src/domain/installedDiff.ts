import type { InstalledVersions } from './provenance';

/** How one D2 set (name -> version) differs from another: the re-resolution of a manifest (docs/resolution.md). */
export interface InstalledDiff {
  added: { name: string; version: string | null }[];
  removed: { name: string; version: string | null }[];
  /** Names in both whose versions differ; a version unknown on either side is no change. */
  changed: { name: string; from: string; to: string }[];
}

/** D2 then against D2 now, each sorted by name. Pure. */
export function diffInstalledVersions(then: InstalledVersions, now: InstalledVersions): InstalledDiff {
  const names = (v: InstalledVersions) => Object.keys(v).sort();
  const added = names(now).filter((n) => !Object.hasOwn(then, n)).map((name) => ({ name, version: now[name] ?? null }));
  const removed = names(then).filter((n) => !Object.hasOwn(now, n)).map((name) => ({ name, version: then[name] ?? null }));
  const changed = names(then).flatMap((name) => {
    const [from, to] = [then[name], now[name]];
    return Object.hasOwn(now, name) && from != null && to != null && from !== to ? [{ name, from, to }] : [];
  });
  return { added, removed, changed };
}

export function isSameInstalled(d: InstalledDiff): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;
}

/** A D2 set known by names alone (records before versions were kept): every version unknown. */
export function namesOnly(names: string[]): InstalledVersions {
  return Object.fromEntries(names.map((n) => [n, null]));
}

/** A diff as one line: `+luxon 3.4.4 -tzdata numpy 1.26.4->2.1.0`; `-` where nothing changed. */
export function describeInstalledDiff(d: InstalledDiff): string {
  const v = (s: string | null) => (s === null ? '' : ` ${s}`);
  const parts = [...d.changed.map((c) => `${c.name} ${c.from}->${c.to}`), ...d.added.map((a) => `+${a.name}${v(a.version)}`), ...d.removed.map((r) => `-${r.name}${v(r.version)}`)];
  return parts.length === 0 ? '-' : parts.join(' ');
}
