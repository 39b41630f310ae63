import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { describeHolder, tryPidLock } from './pidLock';
import { pidAlive } from './procfs';
import {
  PRIVATE_PG_PORT,
  PRIVATE_PG_USER,
  postgresBinDir,
  postmasterPid,
  privatePostgresLayout,
  privatePostgresUrl,
  type PrivatePostgresLayout,
  type ServerUser,
} from './postgresLayout';
import type { Settings } from './settings';

/**
 * The private Postgres server of a state folder: the default results database when DATABASE_URL is
 * not set. Started detached on first use (initdb first), reused by every later process (CLI commands,
 * `envgap worker`s), left running like the Temporal dev server. It listens on a Unix socket only (no
 * TCP port, so state folders never collide), in a folder only its owner can enter, with trust auth.
 * Full Postgres durability: a process killed with SIGKILL loses its open transaction, nothing committed.
 */

const START_TIMEOUT_MS = 60000;

export interface PrivatePostgres {
  url: string;
  dataDir: string;
  socketDir: string;
  logFile: string;
  startedServer: boolean;
}

async function answers(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

function chownTo(p: string, user: ServerUser | null) {
  if (user) fs.chownSync(p, user.uid, user.gid);
}

function run(bin: string, args: string[], user: ServerUser | null, what: string) {
  const r = spawnSync(bin, args, { uid: user?.uid, gid: user?.gid, cwd: '/', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${what} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr || r.stdout || '').trim().slice(-2000)}`);
}

/** initdb into a fresh folder beside the data folder, then a rename: a crash mid-initdb never leaves a half cluster. */
function initCluster(l: PrivatePostgresLayout, bin: string) {
  const existing = fs.statSync(l.dataDir, { throwIfNoEntry: false });
  if (existing) {
    if (fs.readdirSync(l.dataDir).length > 0) throw new Error(`${l.dataDir} is not empty and holds no Postgres cluster (no PG_VERSION); move it away`);
    fs.rmdirSync(l.dataDir);
  }
  const parent = path.dirname(l.dataDir);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = `${l.dataDir}.init-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { mode: 0o700 });
  chownTo(tmp, l.user);
  run(path.join(bin, 'initdb'), ['-D', tmp, '-U', PRIVATE_PG_USER, '-A', 'trust', '-E', 'UTF8', '--locale', 'C', '--no-instructions'], l.user, 'initdb');
  fs.renameSync(tmp, l.dataDir);
  if (l.dataDir !== path.join(path.dirname(l.logFile), 'postgres')) {
    fs.rmSync(path.join(path.dirname(l.logFile), 'postgres'), { force: true });
    fs.symlinkSync(l.dataDir, path.join(path.dirname(l.logFile), 'postgres'));
  }
}

/**
 * Starts `postgres` in its own session with stdin from /dev/null, stdout and stderr appended to the log,
 * and no other descriptor of this process, so that a caller's pipe or lock is never held by the server.
 */
function startServer(l: PrivatePostgresLayout, bin: string) {
  if (l.socketDir !== l.dataDir) {
    fs.mkdirSync(l.socketDir, { recursive: true, mode: 0o700 });
    chownTo(l.socketDir, l.user);
  }
  const out = fs.openSync(l.logFile, 'a');
  const args = [
    '-D', l.dataDir,
    '-k', l.socketDir,
    '-p', String(PRIVATE_PG_PORT),
    '-c', 'listen_addresses=',
    '-c', 'unix_socket_permissions=0700',
    '-c', 'max_connections=200',
    '-c', 'logging_collector=off',
  ];
  // detached: setsid. Node's spawn passes the child no descriptor beyond these three (libuv marks the
  // rest close-on-exec; test/integration/embedded-db.test.ts checks the caller's pipes reach EOF).
  const child = spawn(path.join(bin, 'postgres'), args, { detached: true, stdio: ['ignore', out, out], uid: l.user?.uid, gid: l.user?.gid, cwd: l.dataDir });
  fs.closeSync(out);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  child.unref();
  return () => exited;
}

/** Whether the pid in the cluster's postmaster.pid runs (a server started by another process or by hand). */
function postmasterAlive(dataDir: string): boolean {
  const pid = postmasterPid(dataDir);
  return pid !== null && pidAlive(pid);
}

function logTail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

/**
 * Stops the state folder's private server (fast shutdown) and waits until it is gone: for throw-away
 * state folders (benchmarks), whose server would otherwise outlive them. Nothing when none runs.
 */
export async function stopPrivatePostgres(stateDir: string, timeoutMs = 30000): Promise<void> {
  const { dataDir } = privatePostgresLayout(stateDir);
  const pid = postmasterPid(dataDir);
  if (!pid || !pidAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  // The process, not its pid file: the file goes a moment before the server has exited.
  while (pidAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`the private Postgres server in ${dataDir} (pid ${pid}) did not stop within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The URL of the state folder's private server, starting it (and creating its cluster) when it does not answer. */
export async function ensurePrivatePostgres(s: Pick<Settings, 'stateDir' | 'postgresBin'>, log: (line: string) => void): Promise<PrivatePostgres> {
  const l = privatePostgresLayout(s.stateDir);
  const url = privatePostgresUrl(l.socketDir);
  const result = { url, dataDir: l.dataDir, socketDir: l.socketDir, logFile: l.logFile };
  if (await answers(url)) return { ...result, startedServer: false };
  const bin = postgresBinDir(s);
  const deadline = Date.now() + START_TIMEOUT_MS;
  // One process starts the server; the others wait for it to answer.
  let lock = tryPidLock(l.lockFile);
  while ('holder' in lock) {
    if (await answers(url)) return { ...result, startedServer: false };
    if (Date.now() > deadline) throw new Error(`the private Postgres server did not answer within ${START_TIMEOUT_MS / 1000} s while ${describeHolder(lock.holder)} starts it; see ${l.logFile}`);
    await new Promise((r) => setTimeout(r, 200));
    lock = tryPidLock(l.lockFile);
  }
  try {
    if (await answers(url)) return { ...result, startedServer: false };
    if (!fs.existsSync(path.join(l.dataDir, 'PG_VERSION'))) {
      log(`creating the private Postgres cluster in ${l.dataDir}`);
      initCluster(l, bin);
    }
    log(`starting the private Postgres server (data in ${l.dataDir}, socket in ${l.socketDir}, log ${l.logFile})`);
    let exitCode = startServer(l, bin);
    let starts = 1;
    while (Date.now() < deadline) {
      if (await answers(url)) return { ...result, startedServer: true };
      const code = exitCode();
      if (code !== null && !postmasterAlive(l.dataDir)) {
        // After a SIGKILLed server its old backends hold the shared memory for a moment: start again.
        if (starts >= 10) break;
        await new Promise((r) => setTimeout(r, 500));
        exitCode = startServer(l, bin);
        starts++;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the private Postgres server did not answer within ${START_TIMEOUT_MS / 1000} s (${starts} starts); from ${l.logFile}:\n${logTail(l.logFile)}`);
  } finally {
    lock.release();
  }
}
