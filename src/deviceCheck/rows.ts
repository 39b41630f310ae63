import type { GenericVerdict, StageResult } from '../domain/readiness';
import { describeVerdict } from '../readiness/genericVerdict';

/**
 * The device check's verdict table (scripts/gpu-check.sh): one row a stage, each asserted (pass or
 * FAIL) or skipped with its reason. Pure: the rows are judged from what each stage saw.
 */
export interface CheckRow {
  stage: string;
  verdict: 'pass' | 'FAIL' | 'skipped';
  detail: string;
}

export const passed = (stage: string, detail: string): CheckRow => ({ stage, verdict: 'pass', detail });
export const failed = (stage: string, detail: string): CheckRow => ({ stage, verdict: 'FAIL', detail });
export const skippedRow = (stage: string, detail: string): CheckRow => ({ stage, verdict: 'skipped', detail });

const firstLine = (text: string) => text.split('\n')[0]!.trim();
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The host's driver: nvidia-smi's `index, name, driver_version, memory.total` CSV, or how it failed. */
export function hostGpusRow(csv: string | Error): { row: CheckRow; count: number } {
  const stage = 'nvidia-smi';
  if (csv instanceof Error) return { row: failed(stage, `did not run: ${firstLine(csv.message)} (install the NVIDIA driver)`), count: 0 };
  const gpus = csv.trim().split('\n').map((l) => l.split(',').map((f) => f.trim())).filter((f) => f.length >= 3 && f[1]);
  if (gpus.length === 0) return { row: failed(stage, 'lists no GPU'), count: 0 };
  const [, name, driver, memory] = gpus[0]!;
  return { row: passed(stage, `${plural(gpus.length, 'GPU')}: ${name}, driver ${driver}${memory ? `, ${memory}` : ''}`), count: gpus.length };
}

/** A sandbox opened with a device request for every GPU: `nvidia-smi -L` inside it lists as many as the host. */
export function containerGpusRow(listing: string | Error, hostCount: number): CheckRow {
  const stage = 'container GPUs';
  if (listing instanceof Error) return failed(stage, `a sandbox with a device request could not run nvidia-smi: ${firstLine(listing.message)} (the NVIDIA Container Toolkit, then restart Docker)`);
  const inside = listing.split('\n').filter((l) => /^GPU \d+:/.test(l.trim())).length;
  return inside === hostCount && hostCount > 0
    ? passed(stage, `the sandbox sees ${plural(inside, 'GPU')}, as the host`)
    : failed(stage, `the sandbox sees ${plural(inside, 'GPU')}, the host has ${hostCount}`);
}

/** /dev/shm in the sandbox (`df -k --output=size /dev/shm`) against the limits' shm_mb. */
export function shmRow(df: string | Error, shmMb: number): CheckRow {
  const stage = '/dev/shm';
  if (df instanceof Error) return failed(stage, `df did not run in the sandbox: ${firstLine(df.message)}`);
  const kib = df.split('\n').map((l) => l.trim()).filter((l) => /^\d+$/.test(l)).map(Number).pop();
  if (kib === undefined) return failed(stage, `df printed no size: ${firstLine(df) || '(nothing)'}`);
  const mib = kib / 1024;
  return mib === shmMb ? passed(stage, `${mib} MiB, as limits.shm_mb`) : failed(stage, `${mib} MiB in the sandbox, limits.shm_mb is ${shmMb}`);
}

/** A generic probe's stage (probeGeneric): its verdict says what it saw; a skip says why. */
export function probeRow(stage: string, r: StageResult & { verdict: GenericVerdict | null }): CheckRow {
  if (r.status === 'skipped') return skippedRow(stage, `${r.skip_reason}${r.error_excerpt ? `: ${r.error_excerpt}` : ''}`);
  const detail = r.verdict ? describeVerdict(r.verdict) : firstLine(r.error_excerpt ?? '');
  return r.status === 'success' ? passed(stage, detail) : failed(stage, `${r.failure_category}: ${detail}`);
}

/** The table, its columns aligned; the detail column is not cut. */
export function formatTable(rows: readonly CheckRow[]): string {
  const lines = [['stage', 'verdict', 'detail'], ...rows.map((r) => [r.stage, r.verdict, r.detail])];
  const width = (i: number) => Math.max(...lines.map((l) => l[i]!.length));
  return lines.map(([stage, verdict, detail]) => `${stage!.padEnd(width(0))}  ${verdict!.padEnd(width(1))}  ${detail}`.trimEnd()).join('\n') + '\n';
}

/** Non-zero when any asserted stage failed. */
export function exitCodeOf(rows: readonly CheckRow[]): number {
  return rows.some((r) => r.verdict === 'FAIL') ? 1 : 0;
}
