import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startModelRelay, type ModelRelay } from '../../../../src/agents/confined/modelRelay';

/** A request through the relay's unix socket, as the sandbox's end of it forwards one. */
function viaSocket(socket: string, p: string, body: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: socket, path: p, method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-secret-value' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe("envgap's model relay", () => {
  let upstream: http.Server;
  let seen: { path: string; key: string | undefined; body: string; host: string | undefined }[];
  let status: number;
  let dir: string;
  let relay: ModelRelay | null = null;

  beforeEach(async () => {
    seen = [];
    status = 200;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-'));
    upstream = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined, body, host: req.headers.host });
        res.writeHead(status, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        setImmediate(() => res.end('data: two\n\n'));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  });

  afterEach(async () => {
    await relay?.close();
    relay = null;
    upstream.closeAllConnections();
    await new Promise<void>((r) => upstream.close(() => r()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('passes path, headers and body on, streams the answer back and keeps each status', async () => {
    const port = (upstream.address() as AddressInfo).port;
    relay = await startModelRelay(dir, `http://127.0.0.1:${port}/v1`);
    const r = await viaSocket(relay.socket, '/v1/messages?beta=true', '{"model":"m"}');
    expect(r).toMatchObject({ status: 200, body: 'data: one\n\ndata: two\n\n' });
    expect(seen).toEqual([{ path: '/v1/messages?beta=true', key: 'sk-secret-value', body: '{"model":"m"}', host: `127.0.0.1:${port}` }]);
    status = 429;
    expect((await viaSocket(relay.socket, '/v1/messages', '{}')).status).toBe(429);
    expect(relay.calls).toEqual([{ status: 200, problem: null }, { status: 429, problem: null }]);
  });

  it('an unreachable endpoint is a 502 to the agent and a call with its problem named', async () => {
    const port = (upstream.address() as AddressInfo).port;
    upstream.close();
    relay = await startModelRelay(dir, `http://127.0.0.1:${port}`);
    const r = await viaSocket(relay.socket, '/v1/messages', '{}');
    expect(r.status).toBe(502);
    expect(relay.calls).toEqual([{ status: null, problem: `http://127.0.0.1:${port}: ECONNREFUSED` }]);
  });

  it('closing removes the socket', async () => {
    relay = await startModelRelay(dir, 'http://127.0.0.1:9');
    expect(fs.existsSync(relay.socket)).toBe(true);
    await relay.close();
    expect(fs.existsSync(path.join(dir, 'model.sock'))).toBe(false);
    relay = null;
  });
});
