import type Docker from 'dockerode';
import { execFile } from 'node:child_process';
import { promises as dns } from 'node:dns';
import { readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import { promisify } from 'node:util';
import { dockerHostInterfaces, inDockerNetns } from './dockerNetns';
import type { Settings } from './settings';

const run = promisify(execFile);

/**
 * The network every project container joins: a Docker bridge of its own, whose traffic the host's
 * firewall limits to the outside world. Containers reach public addresses (the package indexes, here
 * through the machine's normal route and proxy), DNS at the host's resolvers, and the mirrors the
 * settings name; nothing on the host itself (any of its addresses, the bridge gateway included), no
 * link-local address (169.254.169.254 hands out a cloud machine's credentials), no private range, no
 * other container. See docs/ecosystems.md, "Sandbox".
 */
export const SANDBOX_NETWORK = 'envgap-sandbox';
export const SANDBOX_BRIDGE = 'envgap-sbx0';
/** Forwarded traffic from the bridge (DOCKER-USER jumps here) and traffic from it to the host itself (INPUT jumps here). */
export const FORWARD_CHAIN = 'ENVGAP-SBX-FWD';
export const INPUT_CHAIN = 'ENVGAP-SBX-IN';
/** Bumped whenever the rules below change meaning: it is recorded with each result. */
const POLICY_VERSION = 'v1';

/** Never reachable from a container (IPv4; the network has no IPv6). */
export const BLOCKED_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

export interface Allowed {
  ip: string;
  port: number;
  proto: 'tcp' | 'udp';
  why: string;
}

export interface SandboxNetwork {
  name: string;
  subnet: string;
  gateway: string;
  /** One line that says what the rules allow and drop; recorded with each result. */
  policy: string;
}

/** The host's own IPv4 subnets (other than loopback), blocked too: the machines next to the host are not the outside. */
export function hostSubnets(ifaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): string[] {
  const out = new Set<string>();
  for (const list of Object.values(ifaces)) {
    for (const a of list ?? []) {
      if (a.family !== 'IPv4' || a.internal || !a.cidr) continue;
      out.add(networkOf(a.cidr));
    }
  }
  return [...out].sort();
}

function networkOf(cidr: string): string {
  const [ip, bits] = cidr.split('/');
  const n = Number(bits);
  const v = ip!.split('.').reduce((acc, o) => (acc << 8) + Number(o), 0) >>> 0;
  const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0;
  const m = (v & mask) >>> 0;
  return `${[24, 16, 8, 0].map((s) => (m >>> s) & 255).join('.')}/${n}`;
}

/** The resolvers Docker's embedded DNS forwards to (it does so from inside the container's namespace). */
export function resolvers(resolvConf = readResolvConf()): string[] {
  const out: string[] = [];
  for (const line of resolvConf.split('\n')) {
    const m = /^\s*nameserver\s+(\S+)/.exec(line);
    if (m && net.isIPv4(m[1]!) && !m[1]!.startsWith('127.')) out.push(m[1]!);
  }
  return out;
}

function readResolvConf(): string {
  for (const p of ['/run/systemd/resolve/resolv.conf', '/etc/resolv.conf']) {
    try {
      const text = readFileSync(p, 'utf8');
      if (resolvers(text).length > 0 || p === '/etc/resolv.conf') return text;
    } catch {
      /* next */
    }
  }
  return '';
}

/** The hosts and ports of the mirrors the settings name (a wheelhouse is a folder: nothing to reach). */
export async function mirrorEndpoints(s: Pick<Settings, 'pipIndexUrl' | 'npmRegistry' | 'mavenMirror'>): Promise<Allowed[]> {
  const out: Allowed[] = [];
  for (const [why, url] of [['pip index', s.pipIndexUrl], ['npm registry', s.npmRegistry], ['maven mirror', s.mavenMirror]] as const) {
    if (!url) continue;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      continue;
    }
    const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const ips = net.isIPv4(host) ? [host] : await dns.resolve4(host).catch(async () => (await dns.lookup(host, { all: true, family: 4 }).catch(() => [])).map((a) => a.address));
    for (const ip of ips) out.push({ ip, port, proto: 'tcp', why: `${why} ${u.host}` });
  }
  return out;
}

/** The iptables-restore text for both chains: allowances first, then the drops, then back to Docker's own chains. */
export function firewallRules(allowed: Allowed[], blocked: string[]): string {
  const fwd: string[] = [];
  const input: string[] = [];
  for (const a of allowed) {
    const rule = `-d ${a.ip}/32 -p ${a.proto} -m ${a.proto} --dport ${a.port} -j RETURN`;
    fwd.push(`-A ${FORWARD_CHAIN} ${rule}`);
    input.push(`-A ${INPUT_CHAIN} ${rule.replace('-j RETURN', '-j ACCEPT')}`);
  }
  for (const range of blocked) {
    fwd.push(`-A ${FORWARD_CHAIN} -d ${range} -p tcp -j REJECT --reject-with tcp-reset`);
    fwd.push(`-A ${FORWARD_CHAIN} -d ${range} -j REJECT --reject-with icmp-admin-prohibited`);
  }
  // Other containers of the sandbox (icc is off as well) and any other bridge.
  fwd.push(`-A ${FORWARD_CHAIN} -o ${SANDBOX_BRIDGE} -j REJECT --reject-with icmp-admin-prohibited`);
  fwd.push(`-A ${FORWARD_CHAIN} -j RETURN`);
  // Anything addressed to the host itself, on any of its addresses.
  input.push(`-A ${INPUT_CHAIN} -p tcp -j REJECT --reject-with tcp-reset`);
  input.push(`-A ${INPUT_CHAIN} -j REJECT --reject-with icmp-admin-prohibited`);
  return ['*filter', `:${FORWARD_CHAIN} - [0:0]`, `:${INPUT_CHAIN} - [0:0]`, ...fwd, ...input, 'COMMIT', ''].join('\n');
}

export function describePolicy(subnet: string, allowed: Allowed[], blocked: string[]): string {
  const allow = allowed.map((a) => `${a.why} ${a.ip}:${a.port}/${a.proto}`).join(', ');
  return `${SANDBOX_NETWORK} ${POLICY_VERSION} ${subnet}: public IPv4 only; host itself, other containers and ${blocked.join(' ')} rejected; allowed: ${allow || 'nothing else'}`;
}

/** iptables in the Docker daemon's network namespace (a worker may run in one of its own). */
async function iptables(args: string[]): Promise<void> {
  await run(...inDockerNetns('iptables', ['-w', '10', ...args]));
}

async function hasRule(chain: string, rule: string[]): Promise<boolean> {
  try {
    await iptables(['-C', chain, ...rule]);
    return true;
  } catch {
    return false;
  }
}

async function ensureNetwork(docker: Docker): Promise<{ subnet: string; gateway: string }> {
  const find = async () => (await docker.listNetworks({ filters: { name: [SANDBOX_NETWORK] } })).find((n) => n.Name === SANDBOX_NETWORK);
  let found = await find();
  if (!found) {
    try {
      await docker.createNetwork({
        Name: SANDBOX_NETWORK,
        Driver: 'bridge',
        CheckDuplicate: true,
        Internal: false,
        EnableIPv6: false,
        Labels: { 'envgap.sandbox': POLICY_VERSION },
        Options: { 'com.docker.network.bridge.name': SANDBOX_BRIDGE, 'com.docker.network.bridge.enable_icc': 'false' },
      });
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode !== 409) throw err; // another worker made it first
    }
    found = await find();
  }
  const info = await docker.getNetwork(found!.Id).inspect();
  const cfg = (info.IPAM?.Config ?? []).find((c: { Subnet?: string }) => c.Subnet && net.isIPv4(c.Subnet.split('/')[0]!));
  if (!cfg?.Subnet || !cfg.Gateway) throw new Error(`the ${SANDBOX_NETWORK} network has no IPv4 subnet`);
  if (info.Options?.['com.docker.network.bridge.name'] !== SANDBOX_BRIDGE) throw new Error(`the ${SANDBOX_NETWORK} network exists but not on bridge ${SANDBOX_BRIDGE}: remove it (docker network rm ${SANDBOX_NETWORK})`);
  return { subnet: cfg.Subnet, gateway: cfg.Gateway };
}

/**
 * Creates the network and (re)writes its two firewall chains, atomically (iptables-restore --noflush
 * replaces only these chains), then hooks them into DOCKER-USER and INPUT if not yet hooked. Idempotent;
 * any worker may call it at any time. Needs root on the Docker host.
 */
export async function setUpSandboxNetwork(docker: Docker, settings: Pick<Settings, 'pipIndexUrl' | 'npmRegistry' | 'mavenMirror'>): Promise<SandboxNetwork> {
  const { subnet, gateway } = await ensureNetwork(docker);
  const allowed: Allowed[] = [
    ...resolvers().flatMap((ip) => (['udp', 'tcp'] as const).map((proto) => ({ ip, port: 53, proto, why: 'dns' }))),
    ...(await mirrorEndpoints(settings)),
  ];
  const blocked = [...new Set([...BLOCKED_RANGES, ...hostSubnets(await dockerHostInterfaces(() => os.networkInterfaces()))])];
  await new Promise<void>((resolve, reject) => {
    const child = execFile(...inDockerNetns('iptables-restore', ['-w', '10', '--noflush']), (err) => (err ? reject(err) : resolve()));
    child.stdin!.end(firewallRules(allowed, blocked));
  });
  const hooks: Array<[string, string[]]> = [
    ['DOCKER-USER', ['-i', SANDBOX_BRIDGE, '-j', FORWARD_CHAIN]],
    ['INPUT', ['-i', SANDBOX_BRIDGE, '-j', INPUT_CHAIN]],
  ];
  for (const [chain, rule] of hooks) {
    if (chain === 'DOCKER-USER' && !(await hasChain('DOCKER-USER'))) {
      // Docker started without its own chains: hook into FORWARD directly.
      if (!(await hasRule('FORWARD', rule))) await iptables(['-I', 'FORWARD', '1', ...rule]);
      continue;
    }
    if (!(await hasRule(chain, rule))) await iptables(['-I', chain, '1', ...rule]);
  }
  return { name: SANDBOX_NETWORK, subnet, gateway, policy: describePolicy(subnet, allowed, blocked) };
}

async function hasChain(chain: string): Promise<boolean> {
  try {
    await iptables(['-S', chain]);
    return true;
  } catch {
    return false;
  }
}

const REFRESH_MS = 60_000;
let cached: { at: number; key: string; value: Promise<SandboxNetwork> } | null = null;

/**
 * The sandbox network, set up once a minute at most per process (rules vanish on a host reboot, and
 * a mirror's address may change). `ENVGAP_SANDBOX_NETWORK=off` (a trusted machine without root) runs
 * containers on Docker's default bridge, unrestricted, and says so in the recorded policy.
 */
export function sandboxNetwork(docker: Docker, settings: Pick<Settings, 'pipIndexUrl' | 'npmRegistry' | 'mavenMirror' | 'sandboxNetwork'>): Promise<SandboxNetwork> {
  if (settings.sandboxNetwork === 'off') {
    return Promise.resolve({ name: 'bridge', subnet: '', gateway: '', policy: 'unrestricted: ENVGAP_SANDBOX_NETWORK=off (Docker default bridge, no firewall rules)' });
  }
  const key = JSON.stringify([settings.pipIndexUrl, settings.npmRegistry, settings.mavenMirror]);
  if (!cached || cached.key !== key || Date.now() - cached.at > REFRESH_MS) {
    const value = setUpSandboxNetwork(docker, settings);
    cached = { at: Date.now(), key, value };
    value.catch(() => {
      if (cached?.value === value) cached = null;
    });
  }
  return cached.value;
}
