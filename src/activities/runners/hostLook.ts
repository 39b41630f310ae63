import { readFileSync } from 'node:fs';
import { CPU_MARK } from './serviceWatch';

type Read = (path: string) => string;
const readText: Read = (p) => readFileSync(p, 'utf8');

/** The container's CPU time file, from its init's /proc/PID/cgroup: cgroup v1's cpuacct controller, else v2's unified one. */
export function cgroupCpuFiles(procCgroup: string): string[] {
  const out: string[] = [];
  for (const line of procCgroup.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (!m) continue;
    const [, controllers, dir] = m;
    if (controllers.split(',').includes('cpuacct')) {
      out.unshift(`/sys/fs/cgroup/${controllers}${dir}/cpuacct.usage`);
      if (controllers !== 'cpuacct') out.unshift(`/sys/fs/cgroup/cpuacct${dir}/cpuacct.usage`);
    } else if (controllers === '') {
      out.push(`/sys/fs/cgroup${dir}/cpu.stat`, `/sys/fs/cgroup/unified${dir}/cpu.stat`);
    }
  }
  return out;
}

/**
 * The service watch's look (the text SERVICE_PROBE prints) read from the host: the socket tables of
 * the container's network namespace through its init's /proc/PID/net, and its cgroup's CPU time. No
 * exec, so under a millisecond instead of a docker exec's 60 ms. Null where this process does not see
 * the container's init as that pid (another pid namespace, or the pid is no longer the container's):
 * the caller then looks from inside with an exec.
 */
export function hostServiceLook(pid: number, containerId: string, read: Read = readText): string | null {
  let cgroup: string;
  try {
    cgroup = read(`/proc/${pid}/cgroup`);
  } catch {
    return null;
  }
  if (!pid || !containerId || !cgroup.includes(containerId)) return null;
  const table = (name: string) => {
    try {
      return read(`/proc/${pid}/net/${name}`);
    } catch {
      return '';
    }
  };
  let cpu = '';
  for (const file of cgroupCpuFiles(cgroup)) {
    try {
      const text = read(file);
      cpu = file.endsWith('cpu.stat') ? (/^usage_usec.*$/m.exec(text)?.[0] ?? '') : text.trim();
      if (cpu) break;
    } catch {
      /* the next candidate */
    }
  }
  return `${table('tcp')}${table('tcp6')}${CPU_MARK}\n${cpu}\n`;
}
