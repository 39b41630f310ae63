import type { Settings } from '../../infra/settings';

/**
 * The package indexes an agent may reach from its sandbox (through envgap's package proxy): the
 * public registries of the four ecosystems and of the agents' own tools, and Debian's archive. A name
 * starting with a dot stands for every host under it.
 */
export const PACKAGE_INDEX_HOSTS: readonly string[] = [
  // Python
  'pypi.org',
  'files.pythonhosted.org',
  // JavaScript
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  // Java
  'repo.maven.apache.org',
  'repo1.maven.org',
  'plugins.gradle.org',
  'services.gradle.org',
  // Rust, Go (a C++ project's or an agent's tools may want them)
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  'proxy.golang.org',
  'sum.golang.org',
  // Debian
  'deb.debian.org',
  'security.debian.org',
];

export interface HostAllowList {
  /** Exact host names, and `.suffix` entries for every host under a domain. */
  hosts: readonly string[];
  ports: readonly number[];
}

/** The hosts of the mirrors the settings name: an agent installs from them as the project's run does. */
export function mirrorHosts(s: Pick<Settings, 'pipIndexUrl' | 'npmRegistry' | 'mavenMirror'>): string[] {
  const out: string[] = [];
  for (const url of [s.pipIndexUrl, s.npmRegistry, s.mavenMirror]) {
    if (!url) continue;
    try {
      out.push(new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase());
    } catch {
      // A mirror that is no URL is refused where it is used (settings.ts); nothing to allow here.
    }
  }
  return out;
}

/** What an agent's sandbox may reach: the package indexes and the settings' mirrors, on the web's ports. */
export function packageAllowList(s: Pick<Settings, 'pipIndexUrl' | 'npmRegistry' | 'mavenMirror'>, extra: readonly string[] = []): HostAllowList {
  const ports = new Set([443, 80]);
  for (const url of [s.pipIndexUrl, s.npmRegistry, s.mavenMirror]) {
    if (!url) continue;
    try {
      const u = new URL(url);
      ports.add(Number(u.port || (u.protocol === 'https:' ? 443 : 80)));
    } catch {
      /* as above */
    }
  }
  const hosts = [...new Set([...PACKAGE_INDEX_HOSTS, ...mirrorHosts(s), ...extra.map((h) => h.toLowerCase())])];
  return { hosts, ports: [...ports].sort((a, b) => a - b) };
}

/** Whether `host:port` is on the list. A name with a trailing dot is the same name; nothing else is bent. Pure. */
export function hostAllowed(list: HostAllowList, host: string, port: number): boolean {
  if (!list.ports.includes(port)) return false;
  const h = host.toLowerCase().replace(/\.$/, '').replace(/^\[|\]$/g, '');
  if (h === '') return false;
  return list.hosts.some((entry) => (entry.startsWith('.') ? h.endsWith(entry) && h.length > entry.length : h === entry));
}

/** `host:port` of a CONNECT request's target (`[v6]:port` too), or null where it is not one. Pure. */
export function connectTarget(target: string): { host: string; port: number } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:\s/]+):(\d{1,5})$/.exec(target);
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1]!, port };
}
