import { Kysely, sql } from 'kysely';

/** The README diagnosis protocol's records (envgap.readme/v1), one per (study, agent, instance, trial). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('readme_instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('study', 'text', (c) => c.notNull())
    .addColumn('agent', 'text', (c) => c.notNull())
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('trial', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('record', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('readme_instances_study').on('readme_instances').column('study').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('readme_instances').execute();
}
