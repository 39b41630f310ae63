import type { z } from 'zod';
import { describeIssues } from '../text/zodIssues';

/** Records from JSON lines, each checked by `schema`; blank lines skipped; a bad line names the source, the line and the field. */
export function parseJsonl<T extends z.ZodType>(text: string, source: string, schema: T): z.infer<T>[] {
  const records: z.infer<T>[] = [];
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
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new Error(`${where}: ${describeIssues(parsed.error).join('; ')}`);
    records.push(parsed.data);
  });
  return records;
}
