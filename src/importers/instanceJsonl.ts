import { InstanceRecord } from '../domain/instance';
import { describeIssues } from '../text/zodIssues';
import { parseJsonl } from './jsonl';

/**
 * Instance records from JSON lines (as `envgap export` writes them); blank lines are skipped. A line
 * that is not a valid record is an error naming the source, the line number and the field.
 */
export function parseInstanceJsonl(text: string, source: string): InstanceRecord[] {
  return parseJsonl(text, source, InstanceRecord);
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
