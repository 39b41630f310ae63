import { z } from 'zod';
import type { LimitClass } from '../domain/sandboxRecord';
import { describeIssues } from '../text/zodIssues';

export { REPO_ROOT, REPORT_PATH } from './paths';

/** One step of a session: a shell command run in the container, or a file written into it. */
export type SessionStep = { kind: 'command'; command: string; timeoutS: number | null } | { kind: 'write'; path: string; content: string };

/** What one step of a session did, as the readiness workflow records it. */
export interface StepResult {
  index: number;
  kind: SessionStep['kind'];
  /** The command (or `write PATH`), capped, for the Temporal UI. */
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The whole output, as a blob. */
  outputHash: string;
  excerpt: string;
  /** The activity's attempt: above 1, the step ran again after its worker died (the container survived). */
  attempt: number;
  /** The sandbox limit the step reached (its output ends saying so); absent in histories from before. */
  limit?: LimitClass | null;
}

const Line = z.union([
  z.strictObject({ cmd: z.string().min(1).max(64 * 1024), timeout_s: z.number().positive().max(86_400).optional() }),
  z.strictObject({ write: z.strictObject({ path: z.string().regex(/^\//, 'must be an absolute path in the container').max(4096), content: z.string().max(8 * 1024 * 1024) }) }),
]);

/**
 * A recorded session (`session.jsonl`): one step a line, `{"cmd": "...", "timeout_s": 600}` or
 * `{"write": {"path": "/abs/path", "content": "..."}}`; blank lines are skipped. A bad line is an error
 * naming the file, the line and the field.
 */
export function parseSession(text: string, file: string): SessionStep[] {
  const steps: SessionStep[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new Error(`${file}:${i + 1}: not JSON: ${(e as Error).message}`);
    }
    const parsed = Line.safeParse(value);
    if (!parsed.success) throw new Error(`${file}:${i + 1}: not a session step ({"cmd": ...} or {"write": {"path", "content"}}): ${describeIssues(parsed.error).join('; ')}`);
    const step = parsed.data;
    steps.push('cmd' in step ? { kind: 'command', command: step.cmd, timeoutS: step.timeout_s ?? null } : { kind: 'write', path: step.write.path, content: step.write.content });
  });
  return steps;
}
