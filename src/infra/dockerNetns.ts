import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import type * as os from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The Docker daemon's network namespace, where its bridges and their firewall live, or null where it
 * is this process's own. A worker in a network namespace of its own (deploy/local-cluster.sh puts
 * each in one, so that it reaches the cluster only through its address, as on another machine)
 * programs the sandbox firewall and reads the host's subnets there, not in its own.
 */
export function dockerNetns(pidFile = '/var/run/docker.pid'): string | null {
  try {
    const ns = `/proc/${readFileSync(pidFile, 'utf8').trim()}/ns/net`;
    return readlinkSync(ns) === readlinkSync('/proc/self/ns/net') ? null : ns;
  } catch {
    return null;
  }
}

/** `cmd args` as run in the Docker daemon's network namespace: through nsenter where that is not this process's. */
export function inDockerNetns(cmd: string, args: string[], ns = dockerNetns()): [string, string[]] {
  return ns ? ['nsenter', [`--net=${ns}`, '--', cmd, ...args]] : [cmd, args];
}

interface IpAddrJson {
  ifname?: string;
  addr_info?: { family?: string; local?: string; prefixlen?: number; scope?: string }[];
}

/** `ip -j -4 addr` as os.networkInterfaces() gives them (IPv4, with their CIDR; loopback marked internal). */
export function interfacesFromIpJson(text: string): NodeJS.Dict<os.NetworkInterfaceInfo[]> {
  const out: NodeJS.Dict<os.NetworkInterfaceInfo[]> = {};
  for (const link of JSON.parse(text) as IpAddrJson[]) {
    const list = (link.addr_info ?? [])
      .filter((a) => a.family === 'inet' && a.local && a.prefixlen !== undefined)
      .map((a) => ({ address: a.local!, netmask: '', family: 'IPv4' as const, mac: '', internal: a.scope === 'host', cidr: `${a.local}/${a.prefixlen}` }));
    if (link.ifname && list.length > 0) out[link.ifname] = list;
  }
  return out;
}

/** The Docker host's interfaces: this process's own, or (in another network namespace) those of dockerd's. */
export async function dockerHostInterfaces(ownInterfaces: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>): Promise<NodeJS.Dict<os.NetworkInterfaceInfo[]>> {
  const ns = dockerNetns();
  if (!ns) return ownInterfaces();
  const [cmd, args] = inDockerNetns('ip', ['-j', '-4', 'addr', 'show'], ns);
  return interfacesFromIpJson((await run(cmd, args)).stdout);
}
