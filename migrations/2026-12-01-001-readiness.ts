import { Kysely, sql } from 'kysely';

/** The readiness protocol's records (envgap.readiness/v1), one per (study, agent, repo, trial). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('readiness_instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('study', 'text', (c) => c.notNull())
    .addColumn('agent', 'text', (c) => c.notNull())
    .addColumn('repo', 'text', (c) => c.notNull())
    .addColumn('trial', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('record', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('readiness_instances_study').on('readiness_instances').column('study').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('readiness_instances').execute();
}
