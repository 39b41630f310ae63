/**
 * Whether a program still running at its time limit was serving (docs/ecosystems.md, "Services").
 * While the run step runs, the harness looks into the container, once the program has run for the
 * study's `service_grace_s` and then every couple of seconds until the run ends, from the host where it
 * can (src/activities/runners/hostLook.ts), else with a short exec of its own: the TCP sockets of /proc/net/tcp and /proc/net/tcp6 (the container has its own network
 * namespace, so a socket in LISTEN state there is the program's, but Docker's embedded DNS server on
 * 127.0.0.11 and any socket already listening before the run started), and the cgroup's CPU time. A program
 * seen listening has started: at the time limit it is a service, a success. One never seen listening
 * is a Timeout, `silent` when it printed nothing and used next to no CPU from the first look to the
 * last (it sleeps, or waits on something that never comes), `busy` otherwise (it computes, loops,
 * prints).
 */

/** The TCP state LISTEN in /proc/net/tcp (include/net/tcp_states.h: TCP_LISTEN = 10). */
const TCP_LISTEN = '0A';

/** Docker's embedded DNS server of a user-defined network listens in the container's namespace on 127.0.0.11 (TCP, a random port). */
const DOCKER_DNS = '0B00007F';

export interface ListeningSocket {
  port: number;
  inode: string;
}

/**
 * The sockets in LISTEN state in the text of /proc/net/tcp and /proc/net/tcp6 (header lines skipped),
 * but Docker's embedded DNS server (127.0.0.11).
 */
export function listeningSockets(procNetTcp: string): ListeningSocket[] {
  const out: ListeningSocket[] = [];
  for (const line of procNetTcp.split('\n')) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    const f = line.trim().split(/\s+/);
    if (f.length < 4 || !/^\d+:$/.test(f[0]) || f[3].toUpperCase() !== TCP_LISTEN) continue;
    const local = /^([0-9A-Fa-f]+):([0-9A-Fa-f]{4})$/.exec(f[1]);
    if (!local || local[1].toUpperCase() === DOCKER_DNS) continue;
    out.push({ port: parseInt(local[2], 16), inode: f[9] ?? '' });
  }
  return out;
}

/** The local ports of listeningSockets, each once, in order. */
export function listeningPorts(procNetTcp: string, except: ReadonlySet<string> = new Set()): number[] {
  const ports = new Set(listeningSockets(procNetTcp).filter((s) => !except.has(s.inode)).map((s) => s.port));
  return [...ports].sort((a, b) => a - b);
}

/** The marker between the socket tables and the CPU time in the probe's output. */
export const CPU_MARK = '<<envgap-cpu>>';

/** The probe: both socket tables, then the cgroup's CPU time (v1 cpuacct.usage in ns, or v2 cpu.stat usage_usec). */
export const SERVICE_PROBE = [
  'sh',
  '-c',
  `cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; echo '${CPU_MARK}'; cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null || grep '^usage_usec' /sys/fs/cgroup/cpu.stat 2>/dev/null; true`,
];

export interface ProbeReading {
  ports: number[];
  /** The container's CPU time so far, in ns; null where it could not be read. */
  cpuNs: number | null;
}

export function parseProbe(output: string, except: ReadonlySet<string> = new Set()): ProbeReading {
  const at = output.indexOf(CPU_MARK);
  const tables = at >= 0 ? output.slice(0, at) : output;
  const cpu = at >= 0 ? output.slice(at + CPU_MARK.length) : '';
  let cpuNs: number | null = null;
  const v2 = /usage_usec\s+(\d+)/.exec(cpu);
  const v1 = /^\s*(\d+)\s*$/m.exec(cpu);
  if (v2) cpuNs = Number(v2[1]) * 1000;
  else if (v1) cpuNs = Number(v1[1]);
  return { ports: listeningPorts(tables, except), cpuNs };
}

export type TimeoutKind = 'silent' | 'busy';
export type RunKind = 'program' | 'service';

/** Below this share of one CPU between the first look and the last, a program that printed nothing is silent. */
export const SILENT_CPU_SHARE = 0.2;

export interface WatchReading {
  /** The ports seen listening at the first look that saw any; empty where none was seen. */
  ports: number[];
  /** How many looks were taken. */
  looks: number;
  timeoutKind: TimeoutKind | null;
}

/** Runs the looks while the run step runs; `stop` when it has ended. */
export class ServiceWatch {
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> = Promise.resolve();
  private ports: number[] = [];
  private first: { at: number; cpuNs: number | null } | null = null;
  private last: { at: number; cpuNs: number | null } | null = null;
  private looks = 0;
  private lastOutputAt = 0;

  constructor(
    private readonly probe: () => Promise<string | null>,
    private readonly everyMs = 2000,
  ) {}

  /** Sockets already listening before the program started (an install step's leftover): not the program's. */
  private before = new Set<string>();

  /** One look before the run: what listens then is never counted. */
  async baseline(): Promise<void> {
    try {
      const text = await this.probe();
      if (text !== null) this.before = new Set(listeningSockets(text).map((s) => s.inode));
    } catch {
      // No baseline: every socket counts.
    }
  }

  /** The program printed something (any chunk of its output). */
  output(): void {
    this.lastOutputAt = Date.now();
  }

  /** The first look after `graceS`, or a second before the time limit where that comes first. */
  start(graceS: number, limitS: number): void {
    const firstMs = Math.max(500, Math.min(graceS * 1000, (limitS - 1) * 1000));
    this.timer = setTimeout(() => this.look(), firstMs);
  }

  private look(): void {
    if (this.stopped) return;
    this.current = (async () => {
      let text: string | null = null;
      try {
        text = await this.probe();
      } catch {
        // The container is busy or gone (the pids limit, its removal): no reading this time.
      }
      if (this.stopped || text === null) return;
      const r = parseProbe(text, this.before);
      const reading = { at: Date.now(), cpuNs: r.cpuNs };
      this.looks++;
      if (!this.first) this.first = reading;
      this.last = reading;
      if (r.ports.length > 0 && this.ports.length === 0) this.ports = r.ports;
    })().finally(() => {
      // Once it is seen listening, nothing more is needed.
      if (!this.stopped && this.ports.length === 0) this.timer = setTimeout(() => this.look(), this.everyMs);
    });
  }

  async stop(): Promise<WatchReading> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current.catch(() => undefined);
    return { ports: this.ports, looks: this.looks, timeoutKind: this.ports.length > 0 || !this.first ? null : this.kind() };
  }

  private kind(): TimeoutKind {
    const first = this.first!;
    const last = this.last!;
    if (this.lastOutputAt >= first.at && this.lastOutputAt <= last.at) return 'busy';
    if (first.cpuNs === null || last.cpuNs === null || last.at <= first.at) return 'silent';
    const share = (last.cpuNs - first.cpuNs) / ((last.at - first.at) * 1e6);
    return share < SILENT_CPU_SHARE ? 'silent' : 'busy';
  }
}
