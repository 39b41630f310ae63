import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/connect';

/** The Postgres server of the test run (scripts/test.sh starts one and sets DATABASE_URL). */
export function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the tests through scripts/test.sh, which starts Postgres');
  return url;
}

/** A new, empty, migrated database for one test file, dropped by `drop()`. */
export async function freshDatabase(): Promise<{ db: Db; url: string; drop(): Promise<void> }> {
  const name = `envgap_test_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), stateDir: '/nonexistent' });
  await migrateToLatest(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.destroy();
      const c = new Client({ connectionString: serverUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
