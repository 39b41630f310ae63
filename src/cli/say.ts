/** Progress lines for people go to stderr, so stdout stays parseable (json, tables). */
export function say(line: string): void {
  process.stderr.write(`envgap: ${line}\n`);
}
