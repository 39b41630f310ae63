import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Settings } from './settings';

/** Where a state folder's private Postgres server lives, as whom it runs, and how it is reached. */

/** Names the socket file (`.s.PGSQL.5433`); there is no TCP listener. */
export const PRIVATE_PG_PORT = 5433;
export const PRIVATE_PG_USER = 'postgres';
export const PRIVATE_PG_DATABASE = 'postgres';

export interface ServerUser {
  uid: number;
  gid: number;
  name: string;
}

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

/** The pid in the cluster's postmaster.pid; null where there is none. */
export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}
