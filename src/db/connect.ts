import * as fs from 'node:fs';
import * as path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type Driver } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { Pool } from 'pg';
import { migrations } from '../../migrations';
import { describeHolder, tryPidLock } from '../infra/pidLock';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DbOptions {
  /**
   * A Postgres connection string, or `pglite:` / `pglite:///abs/path` for an embedded PGlite database
   * (`$stateDir/pglite` without a path). Without it, too, an embedded PGlite under `stateDir`; the CLI
   * never opens that by default (see openDb in src/cli/context.ts: the state folder's private server).
   */
  url?: string;
  stateDir: string;
}

export function isPgliteUrl(url: string | undefined): boolean {
  return !url || /^pglite:/i.test(url);
}

/** The folder of a `pglite:` URL. */
export function pgliteDir(url: string | undefined, stateDir: string): string {
  const rest = (url ?? '').replace(/^pglite:/i, '').replace(/^\/\/(?=\/)/, '').replace(/^\/\/$/, '');
  return rest ? path.resolve(decodeURIComponent(rest)) : path.join(stateDir, 'pglite');
}

export async function openDatabase(opts: DbOptions): Promise<Db> {
  if (!isPgliteUrl(opts.url)) {
    const pool = new Pool({ connectionString: opts.url, max: 10 });
    // An idle connection that the server closes (a restart, a failover) must not crash a worker:
    // the pool drops it and the next query opens a new one.
    pool.on('error', (err) => process.stderr.write(`envgap: an idle database connection was closed: ${err.message}\n`));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  return openPglite(pgliteDir(opts.url, opts.stateDir));
}

/**
 * PGlite is one Postgres inside this process: a second process opening the same folder corrupts it.
 * So the folder is held by a lock file (`<folder>.lock`, the holder's pid) from open to destroy(), and a
 * second process is refused with the holder's name.
 */
async function openPglite(dir: string): Promise<Db> {
  const lockFile = `${dir}.lock`;
  const lock = tryPidLock(lockFile);
  if ('holder' in lock) {
    throw new Error(
      `the embedded PGlite database at ${dir} is in use by ${describeHolder(lock.holder)}: PGlite serves one process only. ` +
        `Stop that process, or leave DATABASE_URL unset to use the state folder's private Postgres server, which any number of processes share (lock file ${lockFile})`,
    );
  }
  try {
    fs.mkdirSync(dir, { recursive: true });
    const pg = new PGlite(dir);
    await pg.waitReady;
    return new Kysely<Database>({ dialect: new LockedPGliteDialect(pg, lock.release) });
  } catch (err) {
    lock.release();
    throw err;
  }
}

class LockedPGliteDialect extends PGliteDialect {
  constructor(
    pg: PGlite,
    private readonly release: () => void,
  ) {
    super(pg);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const destroy = driver.destroy.bind(driver);
    driver.destroy = async () => {
      try {
        await destroy();
      } finally {
        this.release();
      }
    };
    return driver;
  }
}

/** Runs every pending migration; any failure throws with the migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}

export async function migrateDown(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  for (;;) {
    const { error, results } = await migrator.migrateDown();
    if (error) throw new Error(`database migration down failed: ${error instanceof Error ? error.message : String(error)}`);
    if (!results || results.length === 0) return;
  }
}
