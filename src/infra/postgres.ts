import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import type { Settings } from './settings';

/**
 * The private Postgres server of a state folder: the default results database when DATABASE_URL is
 * not set. Started detached on first use (initdb first), reused by every later process (CLI commands,
 * `envgap worker`s), left running like the Temporal dev server. It listens on a Unix socket only (no
 * TCP port, so state folders never collide), in a folder only its owner can enter, with trust auth.
 * Full Postgres durability: a process killed with SIGKILL loses its open transaction, nothing committed.
 */

/** Names the socket file (`.s.PGSQL.5433`); there is no TCP listener. */
export const PRIVATE_PG_PORT = 5433;
export const PRIVATE_PG_USER = 'postgres';
export const PRIVATE_PG_DATABASE = 'postgres';
const START_TIMEOUT_MS = 60000;

export interface PrivatePostgres {
  url: string;
  dataDir: string;
  socketDir: string;
  logFile: string;
  startedServer: boolean;
}

interface ServerUser {
  uid: number;
  gid: number;
  name: string;
}

// --- pid lock files ---------------------------------------------------------------------------

export interface LockHolder {
  pid: number;
  startTime: string | null;
  command: string;
  since: string;
}

/** The kernel's start time of a process (clock ticks since boot), so that a reused pid is not taken for the holder. */
function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function processAlive(holder: LockHolder): boolean {
  if (!pidAlive(holder.pid)) return false;
  const now = processStartTime(holder.pid);
  return holder.startTime === null || now === null || now === holder.startTime;
}

function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
    return typeof h.pid === 'number' ? h : null;
  } catch {
    return null;
  }
}

export function describeHolder(h: LockHolder): string {
  return `pid ${h.pid} (${h.command}, since ${h.since})`;
}

/**
 * Takes the lock file `file` for this process (O_EXCL create holding pid, start time and command line).
 * A lock whose holder is dead is taken over; a live holder is returned instead. Released by `release()`
 * and on exit; after a SIGKILL the next taker finds the holder dead.
 */
export function tryPidLock(file: string): { release(): void } | { holder: LockHolder } {
  const me: LockHolder = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    command: process.argv.slice(1).map((a) => path.basename(a)).join(' ').slice(0, 200) || 'node',
    since: new Date().toISOString(),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      fs.writeSync(fd, JSON.stringify(me));
      fs.closeSync(fd);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        process.removeListener('exit', release);
        if (readHolder(file)?.pid === me.pid) fs.rmSync(file, { force: true });
      };
      process.on('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (holder && processAlive(holder)) return { holder };
    if (!holder) {
      // Being written right now, or left empty by a crash between create and write.
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 2000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        continue;
      }
    }
    // A dead holder: take the lock over through a rename, so that two takers never both delete a fresh lock.
    const stale = `${file}.stale-${process.pid}`;
    try {
      fs.renameSync(file, stale);
      const moved = readHolder(stale);
      if (moved && processAlive(moved)) fs.renameSync(stale, file); // someone took it just now: put it back
      else fs.rmSync(stale, { force: true });
    } catch {
      // another process moved it first
    }
  }
  const holder = readHolder(file);
  if (holder) return { holder };
  throw new Error(`could not take the lock file ${file}`);
}

// --- the server ---------------------------------------------------------------------------------

function newestDebianBinDir(): string | null {
  let versions: string[];
  try {
    versions = fs.readdirSync('/usr/lib/postgresql');
  } catch {
    return null;
  }
  const dirs = versions
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => `/usr/lib/postgresql/${v}/bin`);
  return dirs.find((d) => fs.existsSync(path.join(d, 'postgres')) && fs.existsSync(path.join(d, 'initdb'))) ?? null;
}

/** The folder of `postgres` and `initdb`: ENVGAP_POSTGRES_BIN, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBinDir(s: Pick<Settings, 'postgresBin'>): string {
  const dir = s.postgresBin ?? newestDebianBinDir();
  if (!dir || !fs.existsSync(path.join(dir, 'postgres')) || !fs.existsSync(path.join(dir, 'initdb'))) {
    throw new Error(
      `the results database needs Postgres (${dir ? `no postgres/initdb in ${dir}` : 'no /usr/lib/postgresql/N/bin'}): ` +
        `install Debian's postgresql package (scripts/ensure-postgres.sh --install-only, or apt-get install postgresql), ` +
        `set ENVGAP_POSTGRES_BIN to the folder holding postgres and initdb, or set DATABASE_URL to a Postgres server`,
    );
  }
  return dir;
}

/** Postgres refuses to run as root: as root the server runs as the `postgres` user (Debian's package creates it). */
function serverUser(): ServerUser | null {
  if (process.getuid?.() !== 0) return null;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${PRIVATE_PG_USER}:`));
  if (!line) {
    throw new Error(
      `Postgres does not run as root and there is no ${PRIVATE_PG_USER} user: install Debian's postgresql package ` +
        `(scripts/ensure-postgres.sh --install-only), or set DATABASE_URL to a Postgres server`,
    );
  }
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid), name: PRIVATE_PG_USER };
}

function canEnter(dir: string, user: ServerUser | null): boolean {
  if (!user) return true;
  return spawnSync('test', ['-x', dir], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

export interface PrivatePostgresLayout {
  dataDir: string;
  socketDir: string;
  logFile: string;
  lockFile: string;
  user: ServerUser | null;
}

/**
 * Where the server of a state folder lives: `$ENVGAP_STATE/postgres`. As root, when the postgres user
 * cannot enter the state folder (it is under /root), the cluster lives in /var/lib/envgap/postgres/<hash
 * of the state folder> and `$ENVGAP_STATE/postgres` is a link to it.
 */
export function privatePostgresLayout(stateDir: string): PrivatePostgresLayout {
  fs.mkdirSync(stateDir, { recursive: true });
  const state = fs.realpathSync(stateDir);
  const user = serverUser();
  const inState = path.join(state, 'postgres');
  const hash = createHash('sha256').update(state).digest('hex').slice(0, 12);
  let dataDir = inState;
  const link = fs.lstatSync(inState, { throwIfNoEntry: false });
  if (link?.isSymbolicLink()) dataDir = fs.readlinkSync(inState);
  else if (!link && user && !canEnter(state, user)) dataDir = path.join('/var/lib/envgap/postgres', hash);
  // A Unix socket path holds at most 107 bytes.
  const socketDir = path.join(dataDir, `.s.PGSQL.${PRIVATE_PG_PORT}.lock`).length < 100 ? dataDir : path.join(os.tmpdir(), `envgap-pg-${hash}`);
  return { dataDir, socketDir, logFile: path.join(state, 'postgres.log'), lockFile: path.join(state, 'postgres.start.lock'), user };
}

export function privatePostgresUrl(socketDir: string): string {
  return `postgresql://${PRIVATE_PG_USER}@localhost:${PRIVATE_PG_PORT}/${PRIVATE_PG_DATABASE}?host=${encodeURIComponent(socketDir)}`;
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

/** Whether a process of this pid exists (one of another user's included). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in the cluster's postmaster.pid; null where there is none. */
export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
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
