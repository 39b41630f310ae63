import type { ReadinessRecord, StageResult } from '../../domain/readiness';
import { researchEnvBenchRaw, type ResearchEnvBenchRaw } from '../../domain/readinessUpstream';
import { pythonRound } from './pythonRound';

function word(stage: StageResult): string {
  return stage.status === 'failure' ? 'failed' : stage.status;
}

/**
 * What upstream's scorer would have read for this record: the imported values where the record came
 * from ResearchEnvBench, else the same values taken from envgap's own record.
 */
export function upstreamRow(r: ReadinessRecord): ResearchEnvBenchRaw {
  const imported = researchEnvBenchRaw(r);
  if (imported !== null) return imported;
  const { c0, c1, c2, c3, c4, c5 } = r.stages;
  const cell = (s: 'cpu' | 'single_gpu' | 'multi_gpu') => (r.supports.includes(s) ? 'yes' : 'no');
  return {
    run_id: r.study,
    job_id: `${r.agent}/${r.repo}/${r.trial}`,
    job_dir: '',
    baseline: r.agent,
    repo_full_name: r.repo,
    repo_url: '',
    script_id: '',
    supports: { cpu: cell('cpu'), single_gpu: cell('single_gpu'), multi_gpu: cell('multi_gpu') },
    // Upstream's pyright stage writes 0 missing when it fails.
    c0: { missing: c0.status === 'success' ? c0.missing.length : 0, total_reported: c0.total, total_baseline: null },
    status: {
      c1: word(c1),
      c2: c2.status === 'success' && c2.observed?.cuda_available === false ? 'failed' : word(c2),
      c3: word(c3),
      c4: word(c4),
    },
    c5: { path: c5.path, version: c5.version, capability: c5.capability },
    agent_wall_time_sec: r.time_to_ready_s === null ? null : pythonRound(r.time_to_ready_s, 3),
    env_prefix_size_mb: r.env_size_bytes === null ? null : pythonRound(r.env_size_bytes / (1024 * 1024), 3),
  };
}
