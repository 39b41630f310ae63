/**
 * A run's output with the obviously volatile parts replaced, so that two runs of the same program
 * compare equal: dates and times, durations, epoch timestamps, hexadecimal addresses, UUIDs and
 * temporary paths; line ends and trailing blanks. Anything else that changes between runs (a random
 * number, a hash of the time) makes the output differ, and the confirmation then compares exits only
 * (docs/confirmation.md).
 */
const VOLATILE: [RegExp, string][] = [
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}([.,]\d+)?\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]{6,}\b/gi, '<address>'],
  [/\b1\d{9}(\d{3})?([.]\d+)?\b/g, '<epoch>'],
  [/\b\d+([.,]\d+)?\s?(ns|µs|us|ms|s|sec|secs|seconds|milliseconds)\b/g, '<duration>'],
  [/\/tmp\/[\w.-]+/g, '/tmp/<temporary>'],
];

export function normalisedRunOutput(output: string): string {
  let out = output.replace(/\r\n?/g, '\n');
  for (const [pattern, replacement] of VOLATILE) out = out.replace(pattern, replacement);
  return out
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trimEnd();
}
