import { InstanceRecord } from '../domain/instance';
import { ReadinessRecord } from '../domain/readiness';
import { ReadmeRecord } from '../domain/readme';
import { describeIssues } from '../text/zodIssues';

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
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const where = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new Error(`${where}: not JSON (${(err as Error).message})`);
    }
    const schema = (value as { schema?: unknown } | null)?.schema;
    const kind = typeof schema === 'string' ? BY_SCHEMA[schema as keyof typeof BY_SCHEMA] : undefined;
    if (!kind) throw new Error(`${where}: schema: expected one of ${Object.keys(BY_SCHEMA).join(', ')}, got ${JSON.stringify(schema)}`);
    const parsed = kind[1].safeParse(value);
    if (!parsed.success) throw new Error(`${where}: ${describeIssues(parsed.error).join('; ')}`);
    (out[kind[0]] as unknown[]).push(parsed.data);
  });
  return out;
}
