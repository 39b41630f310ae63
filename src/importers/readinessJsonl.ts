import { ReadinessRecord } from '../domain/readiness';
import { parseJsonl } from './jsonl';

/** Readiness records from JSON lines; blank lines skipped; a bad line names the source, the line and the field. */
export function parseReadinessJsonl(text: string, source: string): ReadinessRecord[] {
  return parseJsonl(text, source, ReadinessRecord);
}
