import type { ColumnType, Generated } from 'kysely';
import type { ExecutionOutcome } from '../domain/execution';
import type { InstanceRecord } from '../domain/instance';
import type { ReadinessRecord } from '../domain/readiness';
import type { ReadinessStudyInput } from '../domain/readinessStudy';
import type { ReadmeRecord } from '../domain/readme';
import type { ReadmeStudyInput } from '../domain/readmeStudy';
import type { ReresolutionRecord } from '../domain/reresolution';
import type { InstanceInput, StudyInput } from '../domain/study';
import type { JsonText, StoredJson } from './json';

/**
 * A jsonb column holding a T: written only as `encodeJson` of a T, read raw (the value or its text);
 * each table's module (src/db/<table>.ts) decodes it with `decodeJson`.
 */
type Json<T> = ColumnType<StoredJson<T>, JsonText<T>, JsonText<T>>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A study of any protocol, as it was started: `protocol` tells which (absent: the environment gap protocol). */
export type AnyStudySpec = (StudyInput & { protocol?: undefined }) | ReadmeStudyInput | ReadinessStudyInput;

/** What one agent call cost and left behind (the `iterations.agent` column). */
export interface AgentCallMeta {
  prompt_hash: string;
  transcript_hash: string | null;
  tokens_in: number | null;
  tokens_out: number | null;
  cost_usd: number | null;
  duration_ms: number;
  /** How many times the agent was asked in this call (more than one when an answer was unusable). */
  samples?: number;
  /** Why the answer was unusable after its samples (an AgentOutput iteration: no files, no execution). */
  output_error_hash?: string;
  /** The agent CLI's version as it reported it (`claude-code 2.1.332`); absent where unknown. */
  agent_version?: string;
  /** Whose estimate `cost_usd` is (`Claude Code's own list-price estimate`); null or absent where none is known. */
  cost_source?: string | null;
  /** What envgap added to the call: a confined agent's sandbox up and down, files in and out (ms). */
  overhead_ms?: number;
}

export interface BlobsTable {
  hash: string;
  size: number;
  encoding: 'gzip';
  content: Uint8Array;
  created_at: Generated<Timestamp>;
}

export interface StudiesTable {
  name: string;
  spec: Json<AnyStudySpec>;
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
  input: Json<InstanceInput>;
  record: Json<InstanceRecord>;
  updated_at: Generated<Timestamp>;
}

export interface IterationsTable {
  instance_id: string;
  iteration: number;
  files_hash: string | null;
  agent: Json<AgentCallMeta> | null;
  execution: Json<ExecutionOutcome> | null;
  updated_at: Generated<Timestamp>;
}

export interface ReadinessInstancesTable {
  id: string;
  study: string;
  agent: string;
  repo: string;
  trial: number;
  status: string;
  record: Json<ReadinessRecord>;
  updated_at: Generated<Timestamp>;
}

export interface ReadmeInstancesTable {
  id: string;
  study: string;
  agent: string;
  instance: string;
  trial: number;
  status: string;
  record: Json<ReadmeRecord>;
  updated_at: Generated<Timestamp>;
}

/** A finished instance's final manifest installed again on a later day (src/db/reresolutions.ts). */
export interface ReresolutionsTable {
  id: string;
  study: string;
  instance_id: string;
  resolved_on: string;
  status: string;
  record: Json<ReresolutionRecord>;
  updated_at: Generated<Timestamp>;
}

export interface Database {
  blobs: BlobsTable;
  studies: StudiesTable;
  instances: InstancesTable;
  iterations: IterationsTable;
  readiness_instances: ReadinessInstancesTable;
  readme_instances: ReadmeInstancesTable;
  reresolutions: ReresolutionsTable;
}
