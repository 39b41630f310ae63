import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeTargets, startPackageProxy, type PackageProxy } from '../../../../src/agents/confined/packageProxy';

/** A CONNECT through the proxy's unix socket, then one HTTP request inside the tunnel; the proxy's answer line where it refused. */
function tunnel(socket: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: socket, method: 'CONNECT', path: target });
    req.on('connect', (res, s: net.Socket, head: Buffer) => {
      if (res.statusCode !== 200) {
        let body = head.toString();
        s.on('data', (c) => (body += c));
        s.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        s.on('error', reject);
        return;
      }
      const inner = http.request({ createConnection: () => s, path: '/simple/pip/', headers: { host: target } }, (answer) => {
        let body = '';
        answer.on('data', (c) => (body += c));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
      });
      inner.on('error', reject);
      inner.end();
    });
    req.on('error', reject);
    req.end();
  });
}

function plain(socket: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: socket, path: url, headers: { host: new URL(url).host, 'proxy-authorization': 'Basic c2VjcmV0' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("envgap's package proxy", () => {
  let index: http.Server;
  let port: number;
  let hits: { path: string; auth: string | undefined }[];
  let dir: string;
  let proxy: PackageProxy;

  beforeEach(async () => {
    hits = [];
    index = http.createServer((req, res) => {
      hits.push({ path: req.url ?? '', auth: req.headers['proxy-authorization'] as string | undefined });
      res.end('the index');
    });
    await new Promise<void>((r) => index.listen(0, '127.0.0.1', () => r()));
    port = (index.address() as AddressInfo).port;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pkgproxy-'));
    // The index under test is on loopback: the list names it explicitly (the real list never holds loopback).
    proxy = await startPackageProxy(dir, { hosts: ['127.0.0.1', 'localhost'], ports: [port] });
  });

  afterEach(async () => {
    await proxy.close();
    await new Promise<void>((r) => index.close(() => r()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('tunnels to a host on its list', async () => {
    const r = await tunnel(proxy.socket, `127.0.0.1:${port}`);
    expect(r).toEqual({ status: 200, body: 'the index' });
    expect(hits).toEqual([{ path: '/simple/pip/', auth: undefined }]);
  });

  it('refuses any other host, or another port, before connecting to it', async () => {
    let reached = 0;
    const other = net.createServer((s) => {
      reached += 1;
      s.destroy();
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const otherPort = (other.address() as AddressInfo).port;
    try {
      const wrongPort = await tunnel(proxy.socket, `127.0.0.1:${otherPort}`);
      expect(wrongPort.status).toBe(403);
      expect(wrongPort.body).toContain(`127.0.0.1:${otherPort} is not a package index`);
      const wrongHost = await tunnel(proxy.socket, `example.com:${port}`);
      expect(wrongHost.status).toBe(403);
      expect(reached).toBe(0);
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
    expect(proxy.targets()).toEqual([
      { target: `127.0.0.1:${otherPort}`, allowed: false, count: 1 },
      { target: `example.com:${port}`, allowed: false, count: 1 },
    ]);
  });

  it('forwards plain HTTP to a host on its list without the proxy headers, and refuses others', async () => {
    expect(await plain(proxy.socket, `http://localhost:${port}/simple/`)).toEqual({ status: 200, body: 'the index' });
    expect(hits).toEqual([{ path: '/simple/', auth: undefined }]);
    const refused = await plain(proxy.socket, `http://example.com:${port}/`);
    expect(refused.status).toBe(403);
    expect(hits).toHaveLength(1);
  });

  it('answers 502 where a host on its list cannot be reached', async () => {
    await new Promise<void>((r) => index.close(() => r()));
    const r = await tunnel(proxy.socket, `127.0.0.1:${port}`);
    expect(r.status).toBe(502);
    expect(r.body).toContain('ECONNREFUSED');
    index = http.createServer();
    await new Promise<void>((res) => index.listen(0, '127.0.0.1', () => res()));
  });

  it('says in one line what was reached and what was refused', async () => {
    await tunnel(proxy.socket, `127.0.0.1:${port}`);
    await tunnel(proxy.socket, `127.0.0.1:${port}`);
    await tunnel(proxy.socket, 'api.example.com:443');
    expect(describeTargets(proxy.targets())).toBe(`[envgap] network: package indexes reached: 127.0.0.1:${port} ×2; refused (not package indexes): api.example.com:443`);
    expect(describeTargets([])).toBeNull();
  });
});
