import { Kysely, sql } from 'kysely';

/** Re-resolutions of finished studies' final manifests (envgap.reresolution/v1), one per (instance, day). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reresolutions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('study', 'text', (c) => c.notNull())
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('resolved_on', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('record', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('reresolutions_study_day').on('reresolutions').columns(['study', 'resolved_on']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reresolutions').execute();
}
