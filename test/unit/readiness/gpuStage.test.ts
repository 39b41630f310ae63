import { decideGpuStage, type GenericStage } from '../../../src/readiness/gpuStage';
import { GpuStageResult, type StageResult } from '../../../src/domain/readiness';
import { allReduceVerdict } from '../../../src/readiness/genericVerdict';
import { skipped } from '../../../src/readiness/stages';

const verdictOf = (ok: boolean) =>
  allReduceVerdict(
    { output: JSON.stringify({ probe: 'all_reduce', backend: 'nccl', world_size: 2, expected: 3, got: ok ? 3 : 5, mismatched_elements: ok ? 0 : 4, ranks_ok: 2, framework_version: '2.5.1', nccl_version: '2.21.5', device_name: 'H200', shm_bytes: 1, timings_s: {}, error: null }), exitCode: ok ? 0 : 1, timedOut: false },
    { backend: 'nccl', worldSize: 2 },
  );
const generic = (ok: boolean): GenericStage => ({
  status: ok ? 'success' : 'failure',
  skip_reason: null,
  failure_category: ok ? null : 'runtime',
  exit_code: ok ? 0 : 1,
  error_excerpt: ok ? null : 'all-reduce gave 5, expected 3',
  duration_s: 4,
  command: 'torchrun all_reduce.py',
  verdict: verdictOf(ok),
});
const entry = (ok: boolean, category: StageResult['failure_category'] = 'deps'): StageResult => ({
  status: ok ? 'success' : 'failure',
  skip_reason: null,
  failure_category: ok ? null : category,
  exit_code: ok ? 0 : 2,
  error_excerpt: ok ? null : 'ModuleNotFoundError: apex',
  duration_s: 10,
  command: 'bash /opt/envgap/scripts/multi_gpu.sh',
});

describe('a GPU stage decided by the probes that ran', () => {
  it('the generic probe alone where the repository gives no command', () => {
    const r = decideGpuStage(generic(true), null);
    expect(r).toMatchObject({ status: 'success', decided_by: 'generic', command: 'torchrun all_reduce.py', duration_s: 4 });
    expect(r.generic).toMatchObject({ probe: 'all_reduce', ok: true });
    expect(GpuStageResult.parse(r)).toEqual(r);
    expect(r).not.toHaveProperty('verdict');
  });

  it('the repository command alone where no generic probe ran', () => {
    expect(decideGpuStage(null, entry(false))).toEqual({ ...entry(false), decided_by: 'repository', generic: null });
  });

  it('both: success only when both succeeded, the time of both', () => {
    const r = decideGpuStage(generic(true), entry(true));
    expect(r).toMatchObject({ status: 'success', decided_by: 'both', exit_code: 0, duration_s: 14, command: 'torchrun all_reduce.py; bash /opt/envgap/scripts/multi_gpu.sh' });
    expect(GpuStageResult.parse(r)).toEqual(r);
  });

  it('both, the entry failing: its category and excerpt', () => {
    expect(decideGpuStage(generic(true), entry(false, 'data'))).toMatchObject({ status: 'failure', decided_by: 'both', failure_category: 'data', exit_code: 2, error_excerpt: 'ModuleNotFoundError: apex' });
  });

  it('both failing: the generic failure explains the stage', () => {
    const r = decideGpuStage(generic(false), entry(false));
    expect(r).toMatchObject({ status: 'failure', decided_by: 'both', failure_category: 'runtime', exit_code: 1, error_excerpt: 'generic probe: all-reduce gave 5, expected 3' });
    expect(r.generic).toMatchObject({ ok: false, problem: 'wrong_sum' });
  });

  it('the generic probe failing while the entry passes still fails the stage', () => {
    expect(decideGpuStage(generic(false), entry(true))).toMatchObject({ status: 'failure', decided_by: 'both', failure_category: 'runtime' });
  });

  it('a skipped generic probe (too few GPUs) leaves the entry to decide, or is the stage where there is none', () => {
    const tooFew: GenericStage = { ...skipped('insufficient_hardware'), error_excerpt: '1 GPU visible', verdict: null };
    expect(decideGpuStage(tooFew, entry(true))).toMatchObject({ status: 'success', decided_by: 'repository', generic: null });
    expect(decideGpuStage(tooFew, null)).toMatchObject({ status: 'skipped', skip_reason: 'insufficient_hardware', decided_by: 'generic', generic: null });
  });

  it('neither: a programming error, said', () => {
    expect(() => decideGpuStage(null, null)).toThrow(/needs the generic probe or the repository command/);
  });
});

describe('a repository command skipped for want of its assets', () => {
  const noAssets = skipped('prepare_failed');
  it('the generic probe decides the stage', () => {
    expect(decideGpuStage(generic(true), noAssets)).toMatchObject({ status: 'success', decided_by: 'generic' });
  });
  it('with no generic probe, the stage is skipped as prepare_failed', () => {
    expect(decideGpuStage(null, noAssets)).toMatchObject({ status: 'skipped', skip_reason: 'prepare_failed', decided_by: 'repository' });
  });
});
