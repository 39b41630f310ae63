import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A file's content: an object written as JSON, or text written as it is (a truncated file, say). */
export type Content = object | string;

export interface JobSpec {
  /** The folder under jobs/. */
  dir: string;
  /** job_summary.json; absent: no file (not a job). */
  summary?: Content;
  /** build_output/<stage>/<file> -> content, e.g. 'cpu/results.json', 'pyright/baseline_imports.json'. */
  files?: Record<string, Content>;
  report?: Content;
  nvidiaSmi?: string;
}

export const CATEGORIES_HEADER = 'repo_slug,repo,git_link,commit,supports_cpu,supports_single_gpu,supports_multi_gpu,cpu_skip_reason,single_gpu_skip_reason,multi_gpu_skip_reason,category';

function write(file: string, content: Content): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

/** A run directory in upstream's layout (results/<run_id>/): jobs/<job>/..., the categories snapshot. */
export function writeRun(jobs: JobSpec[], categories: string[] | null): string {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reb-run-'));
  fs.mkdirSync(path.join(runDir, 'jobs'));
  if (categories !== null) write(path.join(runDir, 'scripts_repos_test_categories.snapshot.csv'), [CATEGORIES_HEADER, ...categories].join('\n') + '\n');
  for (const job of jobs) {
    const dir = path.join(runDir, 'jobs', job.dir);
    fs.mkdirSync(dir, { recursive: true });
    if (job.summary !== undefined) write(path.join(dir, 'job_summary.json'), job.summary);
    for (const [rel, content] of Object.entries(job.files ?? {})) write(path.join(dir, 'benchmark', 'build_output', rel), content);
    if (job.report !== undefined) write(path.join(dir, 'agent', 'report.json'), job.report);
    if (job.nvidiaSmi !== undefined) write(path.join(dir, 'docker', 'nvidia_smi.txt'), job.nvidiaSmi);
  }
  return runDir;
}

/** A stage result as upstream's runner.py writes it. */
export function stage(status: 'success' | 'failure' | 'skipped', extra: Record<string, unknown> = {}): object {
  return {
    status,
    skip_reason: 'not_applicable',
    exit_code: status === 'failure' ? 1 : 0,
    failure_category: status === 'failure' ? 'runtime' : 'unknown',
    error_excerpt: '',
    ...extra,
  };
}

export function nvidiaSmi(gpus: number): string {
  const lines = ['NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2'];
  for (let i = 0; i < gpus; i++) lines.push(`GPU ${i}: NVIDIA H100 80GB HBM3 (UUID: GPU-${i})`);
  return lines.join('\n') + '\n';
}

export function summary(fields: Record<string, unknown>, agent?: [number, number]): object {
  return {
    run_id: 'r1',
    hardware_bucket: 'auto',
    timestamps: agent ? { agent_start: agent[0], agent_end: agent[1] } : {},
    status: { agent: 'success' },
    ...fields,
  };
}
