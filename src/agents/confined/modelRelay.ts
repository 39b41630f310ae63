import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';

/** One model call the relay passed on: the status the endpoint answered, or null where it could not be reached. */
export interface RelayedCall {
  status: number | null;
  /** Why the endpoint could not be reached (null where it answered). */
  problem: string | null;
}

export interface ModelRelay {
  /** The unix socket it listens on (bind-mounted into the agent's sandbox). */
  socket: string;
  calls: RelayedCall[];
  close(): Promise<void>;
}

/** The socket's file name in the folder bind-mounted into the sandbox. */
export const RELAY_SOCKET = 'model.sock';

/**
 * envgap's relay between an agent in its sandbox and its model endpoint: an HTTP server on a unix
 * socket in `dir` (the only thing of the host the sandbox reaches), passing every request on to
 * `upstream` (the study's base_url, or the vendor's) with its path, headers and body as they are,
 * streaming both ways. It keeps the status of every call, which is how a failed agent call is told
 * apart: an endpoint that refused the key, was overloaded or could not be reached is not the agent's
 * failure (attribution.ts). It reads no body and logs no header: the key passes through untouched.
 */
export async function startModelRelay(dir: string, upstream: string): Promise<ModelRelay> {
  const target = new URL(upstream);
  const client = target.protocol === 'https:' ? https : http;
  const calls: RelayedCall[] = [];
  const socket = path.join(dir, RELAY_SOCKET);
  await fs.mkdir(dir, { recursive: true });
  await fs.rm(socket, { force: true });
  const server = http.createServer((req, res) => {
    const call: RelayedCall = { status: null, problem: null };
    calls.push(call);
    const headers = { ...req.headers, host: target.host };
    const out = client.request({ protocol: target.protocol, hostname: target.hostname, port: target.port || undefined, method: req.method, path: req.url, headers }, (answer) => {
      call.status = answer.statusCode ?? null;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    out.on('error', (err) => {
      if (call.status !== null) return res.destroy();
      call.problem = `${target.origin}: ${(err as NodeJS.ErrnoException).code ?? err.message}`;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `envgap's relay could not reach the model endpoint (${call.problem})` } }));
    });
    req.pipe(out);
    res.on('close', () => out.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  await fs.chmod(socket, 0o666);
  return {
    socket,
    calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(socket, { force: true });
    },
  };
}
