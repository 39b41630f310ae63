import { freePort } from '../../src/infra/freePort';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { stopPrivatePostgres } from '../../src/infra/postgres';
import { pidAlive } from '../../src/infra/procfs';
import { waitFor } from '../helpers/waitFor';
import { postmasterPid, privatePostgresLayout } from '../../src/infra/postgresLayout';

// The results database without DATABASE_URL, as real processes use it: the state folder's private
// Postgres server (several writers at once, SIGKILLed writers and servers), the single-process PGlite
// behind its lock, and daemons that keep none of their caller's descriptors. The child processes run
// the built code (dist/, `npm run build`; scripts/test.sh builds).
const REPO_ROOT = path.resolve(__dirname, '../..');
const DIST = process.env.ENVGAP_TEST_DIST ?? path.join(REPO_ROOT, 'dist');

beforeAll(() => {
  if (!fs.existsSync(path.join(DIST, 'src/cli/context.js'))) throw new Error('build first (npm run build); scripts/test.sh does');
});

/** Opens the database as the CLI does (openDb: migrations included), then stores N blobs, printing each committed hash. */
const WRITER = `
const [dist, tag, n, hold] = process.argv.slice(1);
const { openDb } = require(dist + '/src/cli/context.js');
const { loadSettings } = require(dist + '/src/infra/settings.js');
const { BlobStore } = require(dist + '/src/db/blobs.js');
(async () => {
  const db = await openDb(loadSettings());
  console.log('open');
  if (hold) return setInterval(() => {}, 1000);
  const blobs = new BlobStore(db);
  for (let i = 0; i < Number(n); i++) console.log('committed ' + (await blobs.put(tag + '-' + i)));
  const { count } = await db.selectFrom('blobs').select(db.fn.countAll().as('count')).executeTakeFirstOrThrow();
  console.log('total ' + count);
  await db.destroy();
})().catch((err) => { console.error(err.message); process.exit(1); });
`;

/** Every blob hash in the database, one a line, after opening it as the CLI does. */
const READER = `
const [dist] = process.argv.slice(1);
const { openDb } = require(dist + '/src/cli/context.js');
const { loadSettings } = require(dist + '/src/infra/settings.js');
(async () => {
  const db = await openDb(loadSettings());
  for (const r of await db.selectFrom('blobs').select('hash').execute()) console.log('have ' + r.hash);
  await db.destroy();
})().catch((err) => { console.error(err.message); process.exit(1); });
`;

const states: string[] = [];

function newState(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-embedded-'));
  states.push(dir);
  return dir;
}

function envFor(stateDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ENVGAP_STATE: stateDir, ...extra };
  if (!extra.DATABASE_URL) delete env.DATABASE_URL;
  return env;
}

interface Proc {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exit: Promise<number | null>;
}

function node(script: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, ['-e', script, DIST, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let err = '';
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, lines, stderr: () => err, exit };
}

const committed = (p: Proc) => p.lines.filter((l) => l.startsWith('committed ')).map((l) => l.slice('committed '.length));

async function readAll(stateDir: string, extra: Record<string, string> = {}): Promise<Set<string>> {
  const r = node(READER, [], envFor(stateDir, extra));
  const code = await r.exit;
  if (code !== 0) throw new Error(`the reader failed (${code}): ${r.stderr()}`);
  return new Set(r.lines.filter((l) => l.startsWith('have ')).map((l) => l.slice(5)));
}

async function stopServer(dataDir: string) {
  const pid = postmasterPid(dataDir);
  if (pid && pidAlive(pid)) {
    process.kill(pid, 'SIGINT'); // fast shutdown
    await waitFor(`postmaster ${pid} to exit`, () => !pidAlive(pid), 30000).catch(() => process.kill(pid, 'SIGKILL'));
  }
}

afterAll(async () => {
  for (const state of states) {
    const { dataDir, socketDir } = privatePostgresLayout(state);
    await stopServer(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (socketDir !== dataDir) fs.rmSync(socketDir, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  }
}, 60000);

test('two processes writing 300 rows each at once into the private server (which neither had started) store all 600', async () => {
  const state = newState();
  const t0 = Date.now();
  const a = node(WRITER, ['a', '300'], envFor(state));
  const b = node(WRITER, ['b', '300'], envFor(state));
  const [ca, cb] = await Promise.all([a.exit, b.exit]);
  expect({ ca, cb, a: a.stderr(), b: b.stderr() }).toMatchObject({ ca: 0, cb: 0 });
  expect(committed(a)).toHaveLength(300);
  expect(committed(b)).toHaveLength(300);
  const have = await readAll(state);
  expect(have.size).toBe(600);
  for (const h of [...committed(a), ...committed(b)]) expect(have.has(h)).toBe(true);
  // One server for the state folder, started by one of them.
  const { dataDir } = privatePostgresLayout(state);
  expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  expect(fs.existsSync(path.join(state, 'postgres'))).toBe(true);
  process.stdout.write(`two writers: 600/600 rows in ${Date.now() - t0} ms (server start included)\n`);
}, 120000);

test('a writer SIGKILLed mid-writes loses nothing it reported committed, and the next process opens and migrates', async () => {
  const state = newState();
  const w = node(WRITER, ['killed', '100000'], envFor(state));
  await waitFor('100 committed rows', () => committed(w).length >= 100);
  w.child.kill('SIGKILL');
  await w.exit;
  const reported = committed(w);
  const have = await readAll(state);
  const lost = reported.filter((h) => !have.has(h));
  expect(lost).toEqual([]);
  // a committed row whose line was not printed yet may be there too, but no more than one
  expect(have.size - reported.length).toBeLessThanOrEqual(1);
  process.stdout.write(`writer SIGKILLed: ${reported.length} reported committed, ${have.size} present, ${lost.length} lost\n`);
}, 120000);

test('the server itself SIGKILLed mid-writes: the next process restarts it, recovery keeps every committed row', async () => {
  const state = newState();
  const w = node(WRITER, ['crash', '100000'], envFor(state));
  await waitFor('100 committed rows', () => committed(w).length >= 100);
  const { dataDir } = privatePostgresLayout(state);
  const pid = postmasterPid(dataDir)!;
  process.kill(pid, 'SIGKILL');
  const code = await w.exit; // its next write fails: the connection is gone
  expect(code).not.toBe(0);
  const reported = committed(w);
  const have = await readAll(state);
  const lost = reported.filter((h) => !have.has(h));
  expect(lost).toEqual([]);
  expect(postmasterPid(dataDir)).not.toBe(pid);
  process.stdout.write(`server SIGKILLed: ${reported.length} reported committed, ${have.size} present, ${lost.length} lost\n`);
}, 120000);

test('PGlite (DATABASE_URL=pglite:) serves one process: a second is refused with the holder, and a dead holder frees it', async () => {
  const state = newState();
  const env = envFor(state, { DATABASE_URL: 'pglite:' });
  const holder = node(WRITER, ['h', '0', 'hold'], env);
  await waitFor('the holder to open', () => holder.lines.includes('open'));
  const second = node(WRITER, ['s', '5'], env);
  expect(await second.exit).toBe(1);
  expect(second.stderr()).toContain(`the embedded PGlite database at ${path.join(state, 'pglite')} is in use by pid ${holder.child.pid}`);
  expect(committed(second)).toEqual([]);
  holder.child.kill('SIGKILL');
  await holder.exit;
  const third = node(WRITER, ['t', '5'], env);
  expect({ code: await third.exit, err: third.stderr() }).toMatchObject({ code: 0 });
  expect(third.lines).toContain('total 5');
  expect(fs.existsSync(path.join(state, 'pglite.lock'))).toBe(false); // released on destroy()
  // A single process SIGKILLed mid-writes: the next one opens it (the stale lock taken over), nothing lost.
  const killed = node(WRITER, ['k', '100000'], env);
  await waitFor('50 committed rows', () => committed(killed).length >= 50);
  killed.child.kill('SIGKILL');
  await killed.exit;
  const have = await readAll(state, { DATABASE_URL: 'pglite:' });
  expect(committed(killed).filter((h) => !have.has(h))).toEqual([]);
  process.stdout.write(`PGlite writer SIGKILLed: ${committed(killed).length} reported committed, ${have.size - 5} present\n`);
}, 120000);


/** Runs a command with pipes on stdout, stderr and fd 3; resolves when it exits and every pipe has reached EOF. */
async function pipesCloseAtExit(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; openAfterExit: string[] }> {
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let out = '';
  const names = ['stdout', 'stderr', 'fd 3'];
  const open = new Set(names);
  [child.stdout!, child.stderr!, child.stdio[3] as Readable].forEach((s, i) => {
    s.on('data', (d: Buffer) => (out += d.toString()));
    s.once('end', () => open.delete(names[i]));
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  await waitFor('the pipes to reach EOF', () => open.size === 0, 5000).catch(() => {});
  const openAfterExit = [...open];
  for (const s of [child.stdout!, child.stderr!, child.stdio[3] as Readable]) s.destroy();
  return { code, out, openAfterExit };
}

test('ensure-postgres.sh starts its server detached: the caller\'s pipes reach EOF when the script exits, the server runs on', async () => {
  const state = newState();
  fs.chmodSync(state, 0o755); // the postgres user enters it when we are root
  const data = path.join(state, 'pg');
  const port = await freePort();
  const env = envFor(state, { ENVGAP_PGDATA: data, ENVGAP_PGPORT: String(port) });
  try {
    const r = await pipesCloseAtExit('bash', [path.join(REPO_ROOT, 'scripts/ensure-postgres.sh')], env);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`starting the server on 127.0.0.1:${port}`);
    expect(r.openAfterExit).toEqual([]);
    const pid = postmasterPid(data)!;
    expect(pidAlive(pid)).toBe(true);
  } finally {
    await stopServer(data);
  }
}, 120000);

test('the private server started by the CLI keeps none of its descriptors: the caller\'s pipes reach EOF at exit', async () => {
  const state = newState();
  const script = `
    const { ensurePrivatePostgres } = require(process.argv[1] + '/src/infra/postgres.js');
    const { loadSettings } = require(process.argv[1] + '/src/infra/settings.js');
    ensurePrivatePostgres(loadSettings(), (l) => console.log(l)).then((p) => console.log('started ' + p.startedServer), (e) => { console.error(e.message); process.exit(1); });
  `;
  const r = await pipesCloseAtExit(process.execPath, ['-e', script, DIST], envFor(state));
  expect(r.code).toBe(0);
  expect(r.out).toContain('started true');
  expect(r.openAfterExit).toEqual([]);
  const { dataDir } = privatePostgresLayout(state);
  expect(pidAlive(postmasterPid(dataDir)!)).toBe(true);
  // and a later process reuses it
  const again = await pipesCloseAtExit(process.execPath, ['-e', script, DIST], envFor(state));
  expect(again.out).toContain('started false');
  // A throw-away state folder's server (the benchmarks') is stopped with it; stopping none is nothing.
  const pid = postmasterPid(dataDir)!;
  await stopPrivatePostgres(state);
  expect(pidAlive(pid)).toBe(false);
  await stopPrivatePostgres(state);
}, 120000);

test('lib.sh `daemon` (how ensure-docker.sh starts dockerd) leaves the caller\'s pipes at EOF while the daemon runs', async () => {
  const state = newState();
  const marker = `${30000 + Math.floor(Math.random() * 9999)}`;
  const script = `source ${path.join(REPO_ROOT, 'scripts/lib.sh')}; daemon ${path.join(state, 'daemon.log')} sleep ${marker}; echo started`;
  const r = await pipesCloseAtExit('bash', ['-c', script], envFor(state));
  const cmdline = (p: string) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      return '';
    }
  };
  const pids = () => fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && cmdline(p) === `sleep ${marker}`);
  try {
    expect(r.code).toBe(0);
    expect(r.out).toContain('started');
    expect(r.openAfterExit).toEqual([]);
    expect(pids()).toHaveLength(1);
  } finally {
    for (const p of pids()) process.kill(Number(p), 'SIGKILL');
  }
}, 60000);
