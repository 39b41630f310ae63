import { parseStraceLine } from './strace';

/** One address a traced program's TCP connections to were refused, and how often. */
export interface RefusedConnection {
  /** The IP address as strace printed it; an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, Java's) as IPv4. */
  address: string;
  port: number;
  count: number;
}

// connect(19, {sa_family=AF_INET, sin_port=htons(6379), sin_addr=inet_addr("127.0.0.1")}, 16)
// connect(4, {sa_family=AF_INET6, sin6_port=htons(27017), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::ffff:127.0.0.1", &sin6_addr), ...}, 28)
const CONNECT = /^connect\((\d+), \{sa_family=AF_INET6?, sin6?_port=htons\((\d+)\), (?:sin_addr=inet_addr\("([^"]+)"\)|sin6_flowinfo=[^,]+, inet_pton\(AF_INET6, "([^"]+)")/;
// A non-blocking connect's outcome: getsockopt(19, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0 (older strace: [111]).
const SO_ERROR_REFUSED = /^getsockopt\((\d+), SOL_SOCKET, SO_ERROR, \[(?:ECONNREFUSED|111)\]/;
const RESULT = /\)\s*=\s*(-?\d+)(?:\s+(E[A-Z]+))?[^=]*$/;

/**
 * The TCP connections a `strace -f -e trace=connect,getsockopt` log shows refused, by address, in
 * first-refused order: a blocking connect() that returned ECONNREFUSED, or a non-blocking one
 * (EINPROGRESS: Node.js, Python sockets with a timeout, Java) whose SO_ERROR then read
 * ECONNREFUSED. Unix sockets and other calls are left out.
 */
export function parseRefusedConnections(trace: string): RefusedConnection[] {
  const refused = new Map<string, RefusedConnection>();
  const inProgress = new Map<string, { address: string; port: number }>();
  const pending = new Map<string, string>();
  const count = (target: { address: string; port: number }) => {
    const key = `${target.address}:${target.port}`;
    const seen = refused.get(key) ?? { ...target, count: 0 };
    seen.count++;
    refused.set(key, seen);
  };
  for (const line of trace.split(/\r?\n/)) {
    const text = completeCall(parseStraceLine(line), pending);
    if (text === null) continue;
    const connect = CONNECT.exec(text);
    if (connect) {
      const target = { address: withoutIpv4Mapping(connect[3] ?? connect[4]), port: Number(connect[2]) };
      const errno = RESULT.exec(text)?.[2];
      if (errno === 'ECONNREFUSED') count(target);
      else if (errno === 'EINPROGRESS') inProgress.set(connect[1], target);
      continue;
    }
    const soError = SO_ERROR_REFUSED.exec(text);
    const target = soError ? inProgress.get(soError[1]) : undefined;
    if (target) {
      count(target);
      inProgress.delete(soError![1]);
    }
  }
  return [...refused.values()];
}

/** A whole call's text: a complete line's, or an interrupted call's two halves once its resumption comes; null otherwise. */
function completeCall(parsed: ReturnType<typeof parseStraceLine>, pending: Map<string, string>): string | null {
  if (parsed.kind === 'call') return parsed.text;
  if (parsed.kind === 'unfinished') {
    pending.set(`${parsed.pid}:${parsed.syscall}`, parsed.text);
    return null;
  }
  if (parsed.kind !== 'resumed') return null;
  const key = `${parsed.pid}:${parsed.syscall}`;
  const start = pending.get(key);
  pending.delete(key);
  return start === undefined ? null : start + parsed.text;
}

function withoutIpv4Mapping(address: string): string {
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}
