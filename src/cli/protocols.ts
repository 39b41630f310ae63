import { studyRecords } from '../db/instances';
import { readinessRecords } from '../db/readiness';
import { readmeRecords } from '../db/readme';
import type { AnyStudySpec } from '../db/schema';
import type { Db } from '../db/connect';
import { expandReadinessStudy, readinessInstanceId } from '../domain/readinessStudy';
import { expandReadmeStudy } from '../domain/readmeStudy';
import { instanceId } from '../domain/instance';
import { expandStudy, type StudyInput } from '../domain/study';

/** One exported record of any protocol, with the instance id it belongs to and its status. */
export interface StudyRecordRow {
  id: string;
  status: string;
  record: object;
}

/**
 * What study control (status, pause, resume, retry-errors, instance retry, export) needs to know of a
 * protocol: its workflows, its instances and its records. One entry per protocol.
 */
export interface ProtocolStudies {
  protocol: 'envgap' | 'readme' | 'readiness';
  studyWorkflow: string;
  instanceWorkflow: string;
  /** Every instance of the study, as its instance workflow takes it. */
  instances(spec: AnyStudySpec): { instanceId: string }[];
  records(db: Db, study: string): Promise<StudyRecordRow[]>;
}

const PROTOCOLS: ProtocolStudies[] = [
  {
    protocol: 'envgap',
    studyWorkflow: 'studyWorkflow',
    instanceWorkflow: 'instanceWorkflow',
    instances: (spec) => expandStudy(spec as StudyInput),
    records: async (db, study) =>
      (await studyRecords(db, study)).map((r) => ({ id: instanceId(r), status: r.status, record: r })),
  },
  {
    protocol: 'readme',
    studyWorkflow: 'readmeStudyWorkflow',
    instanceWorkflow: 'readmeInstanceWorkflow',
    instances: (spec) => expandReadmeStudy(spec as Extract<AnyStudySpec, { protocol: 'readme' }>),
    records: async (db, study) => (await readmeRecords(db, study)).map((r) => ({ id: r.instance_id, status: r.status, record: r })),
  },
  {
    protocol: 'readiness',
    studyWorkflow: 'readinessStudyWorkflow',
    instanceWorkflow: 'readinessInstanceWorkflow',
    instances: (spec) => expandReadinessStudy(spec as Extract<AnyStudySpec, { protocol: 'readiness' }>),
    records: async (db, study) => (await readinessRecords(db, study)).map((r) => ({ id: readinessInstanceId(r.study, r.agent, r.repo, r.trial), status: r.status, record: r })),
  },
];

/** The protocol of a study as it was recorded (`protocol` absent: the environment gap protocol). */
export function protocolOfSpec(spec: AnyStudySpec): ProtocolStudies {
  return PROTOCOLS.find((p) => p.protocol === (spec.protocol ?? 'envgap'))!;
}

/** The protocol whose study workflow has this type, or null for a workflow that is no study. */
export function protocolOfWorkflowType(type: string): ProtocolStudies | null {
  return PROTOCOLS.find((p) => p.studyWorkflow === type) ?? null;
}

/** The first protocol that holds records of a study (one run without a study row), with them; or null. */
export async function protocolWithRecords(db: Db, study: string): Promise<{ protocol: ProtocolStudies; rows: StudyRecordRow[] } | null> {
  for (const protocol of PROTOCOLS) {
    const rows = await protocol.records(db, study);
    if (rows.length > 0) return { protocol, rows };
  }
  return null;
}

/** The study an instance id belongs to: every protocol's ids start with `<study>/`. */
export function studyOfInstanceId(id: string): string {
  const at = id.indexOf('/');
  if (at <= 0) throw new Error(`instance id "${id}" does not start with <study>/`);
  return id.slice(0, at);
}

/** Counts as one line, in the order given: `success 3, failed 1, error 0`. */
export function countsLine(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([status, n]) => `${status} ${n}`)
    .join(', ');
}
