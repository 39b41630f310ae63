import { ReadinessRecord } from '../domain/readiness';
import { describeIssues } from '../text/zodIssues';

/** Readiness records from JSON lines; blank lines skipped; a bad line names the source, the line and the field. */
export function parseReadinessJsonl(text: string, source: string): ReadinessRecord[] {
  const records: ReadinessRecord[] = [];
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
    const parsed = ReadinessRecord.safeParse(value);
    if (!parsed.success) throw new Error(`${where}: ${describeIssues(parsed.error).join('; ')}`);
    records.push(parsed.data);
  });
  return records;
}
