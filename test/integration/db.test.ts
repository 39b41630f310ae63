import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sql } from 'kysely';
import { BlobStore, contentHash } from '../../src/db/blobs';
import { migrateDown, migrateToLatest, openDatabase } from '../../src/db/connect';
import { freshDatabase } from '../helpers/postgres';

test('migrations go up and down on Postgres and are idempotent', async () => {
  const { db, drop } = await freshDatabase();
  try {
    expect(await migrateToLatest(db)).toEqual([]); // already at latest
    await migrateDown(db);
    const after = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_name in ('blobs','instances','iterations','studies')`.execute(db);
    expect(after.rows[0].n).toBe(0);
    expect(await migrateToLatest(db)).toEqual(['2026-11-30-001-initial']);
  } finally {
    await drop();
  }
});

test('a failing migration throws loudly with its name', async () => {
  const { db, drop } = await freshDatabase();
  try {
    await sql`drop table iterations`.execute(db);
    await expect(migrateDown(db)).rejects.toThrow(/migration down failed/);
  } finally {
    await drop();
  }
});

test('blobs are content-addressed: the same content twice is stored once', async () => {
  const { db, drop } = await freshDatabase();
  try {
    const blobs = new BlobStore(db);
    const text = 'Traceback (most recent call last):\n' + 'x'.repeat(100000);
    const h1 = await blobs.put(text);
    const h2 = await blobs.put(text);
    expect(h1).toBe(h2);
    expect(h1).toBe(contentHash(text));
    expect(await blobs.getText(h1)).toBe(text);
    const rows = await db.selectFrom('blobs').select(['size']).execute();
    expect(rows).toEqual([{ size: Buffer.byteLength(text) }]);
    await expect(blobs.get('sha256:nope')).rejects.toThrow(/not in the database/);
  } finally {
    await drop();
  }
});

test('without DATABASE_URL an embedded PGlite database under the state folder is used and migrated', async () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-pglite-'));
  const db = await openDatabase({ stateDir });
  try {
    await migrateToLatest(db);
    const blobs = new BlobStore(db);
    const h = await blobs.putJson({ 'main.py': 'print(1)\n' });
    expect(await blobs.getJson(h)).toEqual({ 'main.py': 'print(1)\n' });
    expect(fs.existsSync(path.join(stateDir, 'pglite'))).toBe(true);
  } finally {
    await db.destroy();
  }
});
