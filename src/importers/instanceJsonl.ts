import { InstanceRecord } from '../domain/instance';
import { describeIssues } from '../text/zodIssues';

/**
 * Instance records from JSON lines (as `envgap export` writes them); blank lines are skipped. A line
 * that is not a valid record is an error naming the source, the line number and the field.
 */
export function parseInstanceJsonl(text: string, source: string): InstanceRecord[] {
  const records: InstanceRecord[] = [];
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
    const parsed = InstanceRecord.safeParse(value);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error);
      throw new Error(`${where}: ${issues.join('; ')}`);
    }
    records.push(parsed.data);
  });
  return records;
}

/** Records loaded from elsewhere (the database), checked the same way. */
export function validateInstanceRecords(values: readonly unknown[], source: string): InstanceRecord[] {
  return values.map((value, index) => {
    const parsed = InstanceRecord.safeParse(value);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error);
      throw new Error(`${source} record ${index + 1}: ${issues.join('; ')}`);
    }
    return parsed.data;
  });
}
