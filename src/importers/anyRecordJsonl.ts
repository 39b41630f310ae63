import { InstanceRecord } from '../domain/instance';
import { ReadinessRecord } from '../domain/readiness';
import { ReadmeRecord } from '../domain/readme';
import { jsonLines, parsedOrThrow } from './jsonl';

/** The records of the three protocols, as one file may hold them side by side. */
export interface ProtocolRecords {
  instances: InstanceRecord[];
  readiness: ReadinessRecord[];
  readme: ReadmeRecord[];
}

const BY_SCHEMA = {
  'envgap.instance/v1': ['instances', InstanceRecord],
  'envgap.readiness/v1': ['readiness', ReadinessRecord],
  'envgap.readme/v1': ['readme', ReadmeRecord],
} as const;

/**
 * JSON lines of any of the three record kinds, told apart by their `schema` field; blank lines skipped.
 * A line that is not JSON, names no known schema or fails its schema is an error naming the source, the line and the field.
 */
export function parseAnyRecordJsonl(text: string, source: string): ProtocolRecords {
  const out: ProtocolRecords = { instances: [], readiness: [], readme: [] };
  for (const { value, where } of jsonLines(text, source)) {
    const schema = (value as { schema?: unknown } | null)?.schema;
    const kind = typeof schema === 'string' ? BY_SCHEMA[schema as keyof typeof BY_SCHEMA] : undefined;
    if (!kind) throw new Error(`${where}: schema: expected one of ${Object.keys(BY_SCHEMA).join(', ')}, got ${JSON.stringify(schema)}`);
    (out[kind[0]] as unknown[]).push(parsedOrThrow(kind[1], value, where));
  }
  return out;
}
