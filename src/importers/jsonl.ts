import type { z } from 'zod';
import { describeIssues } from '../text/zodIssues';

/** The JSON value of each non-blank line, with where it stands (`SOURCE line N`); a line that is not JSON is an error naming it. */
export function* jsonLines(text: string, source: string): Generator<{ value: unknown; where: string }> {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].trim();
    if (line === '') continue;
    const where = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new Error(`${where}: not JSON (${(err as Error).message})`);
    }
    yield { value, where };
  }
}

/** A value checked by `schema`, or an error naming where it stood and the field. */
export function parsedOrThrow<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${where}: ${describeIssues(parsed.error).join('; ')}`);
  return parsed.data;
}

/** Records from JSON lines, each checked by `schema`; blank lines skipped; a bad line names the source, the line and the field. */
export function parseJsonl<T extends z.ZodType>(text: string, source: string, schema: T): z.infer<T>[] {
  return [...jsonLines(text, source)].map(({ value, where }) => parsedOrThrow(schema, value, where));
}
