import type { ColumnType, Generated } from 'kysely';

/** A jsonb column: written as JSON text, read raw; each table's module (src/db/<table>.ts) decodes it. */
type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface BlobsTable {
  hash: string;
  size: number;
  encoding: 'gzip';
  content: Uint8Array;
  created_at: Generated<Timestamp>;
}

export interface StudiesTable {
  name: string;
  spec: Json<unknown>;
  created_at: Generated<Timestamp>;
}

export interface InstancesTable {
  id: string;
  study: string;
  agent: string;
  language: string;
  task: string;
  trial: number;
  status: string;
  input: Json<unknown>;
  record: Json<unknown>;
  updated_at: Generated<Timestamp>;
}

export interface IterationsTable {
  instance_id: string;
  iteration: number;
  files_hash: string | null;
  agent: Json<unknown> | null;
  execution: Json<unknown> | null;
  updated_at: Generated<Timestamp>;
}

export interface ReadinessInstancesTable {
  id: string;
  study: string;
  agent: string;
  repo: string;
  trial: number;
  status: string;
  record: Json<unknown>;
  updated_at: Generated<Timestamp>;
}

export interface ReadmeInstancesTable {
  id: string;
  study: string;
  agent: string;
  instance: string;
  trial: number;
  status: string;
  record: Json<unknown>;
  updated_at: Generated<Timestamp>;
}

export interface Database {
  blobs: BlobsTable;
  studies: StudiesTable;
  instances: InstancesTable;
  iterations: IterationsTable;
  readiness_instances: ReadinessInstancesTable;
  readme_instances: ReadmeInstancesTable;
}
