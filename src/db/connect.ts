import * as fs from 'node:fs';
import * as path from 'node:path';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { Pool } from 'pg';
import { migrations } from '../../migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DbOptions {
  /** A Postgres connection string; without it an embedded PGlite database under `stateDir`. */
  url?: string;
  stateDir: string;
}

export async function openDatabase(opts: DbOptions): Promise<Db> {
  if (opts.url) {
    const pool = new Pool({ connectionString: opts.url, max: 10 });
    // An idle connection that the server closes (a restart, a failover) must not crash a worker:
    // the pool drops it and the next query opens a new one.
    pool.on('error', (err) => process.stderr.write(`envgap: an idle database connection was closed: ${err.message}\n`));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const dir = path.join(opts.stateDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  return new Kysely<Database>({ dialect: new PGliteDialect(new PGlite(dir)) });
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
