import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { connectTarget, hostAllowed, type HostAllowList } from './packageHosts';

/** The socket's file name in the relay folder bind-mounted into the sandbox. */
export const PACKAGE_SOCKET = 'packages.sock';

/** What the agent asked the proxy for: each target once, with how often and whether it passed. */
export interface ProxiedTarget {
  target: string;
  allowed: boolean;
  count: number;
}

export interface PackageProxy {
  socket: string;
  targets(): ProxiedTarget[];
  close(): Promise<void>;
}

const HOP_HEADERS = ['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive'];

/**
 * envgap's package proxy: the only way from an agent's sandbox (which has no network of its own) to
 * the outside, an HTTP proxy on a unix socket in `dir` that tunnels (CONNECT) or forwards (plain
 * HTTP) to the hosts on `allow` and refuses every other with 403, before any traffic leaves for it.
 * Package managers find it through HTTPS_PROXY/HTTP_PROXY. It reads no body: TLS passes through.
 */
export async function startPackageProxy(dir: string, allow: HostAllowList): Promise<PackageProxy> {
  const seen = new Map<string, ProxiedTarget>();
  const note = (target: string, allowed: boolean) => {
    const t = seen.get(target) ?? { target, allowed, count: 0 };
    t.count += 1;
    seen.set(target, t);
  };
  const refusal = (target: string) => `envgap: ${target} is not a package index this agent may reach\n`;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('envgap: a proxy request needs an absolute http:// URL\n');
      return;
    }
    const port = Number(url.port || 80);
    const target = `${url.hostname}:${port}`;
    if (url.protocol !== 'http:' || !hostAllowed(allow, url.hostname, port)) {
      note(target, false);
      res.writeHead(403, { 'content-type': 'text/plain' }).end(refusal(target));
      return;
    }
    note(target, true);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_HEADERS.includes(k)));
    const out = http.request({ hostname: url.hostname, port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    out.on('error', (err) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`envgap: ${target}: ${(err as NodeJS.ErrnoException).code ?? err.message}\n`);
    });
    req.pipe(out);
  });

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    track(client);
    const raw = req.url ?? '';
    const t = connectTarget(raw);
    if (!t || !hostAllowed(allow, t.host, t.port)) {
      note(raw, false);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${refusal(raw)}`);
      return;
    }
    note(raw, true);
    let open = false;
    const upstream = net.connect(t.port, t.host.replace(/^\[|\]$/g, ''), () => {
      open = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', (err) => {
      if (open) return client.destroy();
      client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nenvgap: ${raw}: ${(err as NodeJS.ErrnoException).code ?? err.message}\n`);
    });
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });

  const socket = path.join(dir, PACKAGE_SOCKET);
  await fs.mkdir(dir, { recursive: true });
  await fs.rm(socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  await fs.chmod(socket, 0o666);
  return {
    socket,
    targets: () => [...seen.values()].map((t) => ({ ...t })),
    close: async () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(socket, { force: true });
    },
  };
}

/** One line for the agent's transcript: what it reached through the proxy and what was refused. Pure. */
export function describeTargets(targets: ProxiedTarget[]): string | null {
  if (targets.length === 0) return null;
  const list = (xs: ProxiedTarget[]) => xs.map((t) => `${t.target}${t.count > 1 ? ` ×${t.count}` : ''}`).join(', ');
  const passed = targets.filter((t) => t.allowed);
  const refused = targets.filter((t) => !t.allowed);
  return [`[envgap] network: package indexes reached: ${list(passed) || 'none'}`, refused.length > 0 ? `; refused (not package indexes): ${list(refused)}` : ''].join('');
}
