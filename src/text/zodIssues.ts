import type { z } from 'zod';

/** A field's path as a reader writes it: `env.PORT`, `args.2`; `(record)` for the whole value. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(record)' : path.map(String).join('.');
}

/**
 * One line per problem, `field PATH: MESSAGE`. A record key that is refused (zod's `invalid_key`)
 * carries the key's own problems inside; they are given with the key's path.
 */
export function describeIssues(error: z.ZodError): string[] {
  const out: string[] = [];
  const visit = (issues: readonly z.core.$ZodIssue[], base: readonly PropertyKey[]) => {
    for (const issue of issues) {
      const path = [...base, ...issue.path];
      if (issue.code === 'invalid_key' && issue.issues.length > 0) visit(issue.issues, path);
      else out.push(`field ${fieldPath(path)}: ${issue.message}`);
    }
  };
  visit(error.issues, []);
  return out;
}
