import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROTOCOLS } from './all';
import type { Reply, RequestView, WireProtocol } from './protocol';
import { chooseTurn, type ModelScript } from './script';

/** One request the double received, for a test's assertions (the credentials' values are left out). */
export interface Received {
  protocol: string;
  method: string;
  path: string;
  /** Header names, and the value of each that is not a credential. */
  headers: Record<string, string>;
  body: any;
  view: RequestView | null;
  /** The status answered (0: hung). */
  status: number;
}

export interface ModelApiDouble {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  received: Received[];
  /** Tokens reported in all responses so far. */
  sent: { responses: number; input: number; output: number };
  /** Replaces the script for later requests. */
  script(next: ModelScript): void;
  close(): Promise<void>;
}

const CREDENTIAL = /authorization|api-key|x-goog-api-key|cookie/i;
const DEFAULT_USAGE = { input: 100, output: 20 };

/**
 * A local stand-in for the vendors' model APIs (Anthropic Messages, OpenAI Responses and Chat
 * Completions, Gemini generateContent), answering from a script. Listens on 127.0.0.1 only.
 */
export async function startModelApi(initial: ModelScript, protocols: readonly WireProtocol[] = PROTOCOLS): Promise<ModelApiDouble> {
  let script = initial;
  const received: Received[] = [];
  const sent = { responses: 0, input: 0, output: 0 };
  const hanging = new Set<http.ServerResponse>();
  let callCount = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = url.pathname;
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, CREDENTIAL.test(k) ? '[credential]' : String(v)]));
      const protocol = protocols.find((p) => p.matches(req.method ?? 'GET', path));
      const entry: Received = { protocol: protocol?.name ?? 'none', method: req.method ?? 'GET', path: path + url.search, headers, body, view: null, status: 200 };
      received.push(entry);
      if (!protocol) {
        if (protocols.some((p) => p.other?.(req, res, path, body))) return;
        entry.status = 404;
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `the double serves no ${req.method} ${path}` } }));
        return;
      }
      const view = protocol.read(body, path);
      entry.view = view;
      const shell = protocol.shellTool(view.toolNames);
      let reply: Reply;
      if (view.toolNames.length === 0 || !shell) {
        reply = protocol.auxReply?.(body, path) ?? { kind: 'text', text: 'OK' };
        protocol.respond(res, body, path, reply, { input: 0, output: 0 });
        return;
      }
      const turn = chooseTurn(script, view.lastUserText, view.toolResultsSince);
      if ('fail' in turn) {
        entry.status = turn.fail;
        protocol.fail(res, turn.fail);
        return;
      }
      if ('hang' in turn) {
        entry.status = 0;
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      reply = 'shell' in turn ? { kind: 'shell', tool: shell, command: turn.shell, callId: `call_${++callCount}` } : { kind: 'text', text: turn.text };
      const usage = script.usage ?? DEFAULT_USAGE;
      sent.responses++;
      sent.input += usage.input;
      sent.output += usage.output;
      protocol.respond(res, body, path, reply, usage);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    sent,
    script: (next) => (script = next),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
