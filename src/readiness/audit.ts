import type { AgentReport, C5Result, StageResult } from '../domain/readiness';

/** What the hidden probes observed about the interpreter the report names (run in a fresh container). */
export interface InterpreterFacts {
  /** The path exists, is a file and is executable. */
  executable: boolean;
  /** It ran the facts script. */
  runs: boolean;
  python_version: string | null;
  /** torch's version, or null where torch does not import (torch_error says why). */
  torch_version: string | null;
  torch_error: string | null;
  /** torch.cuda.is_available() and device_count() there; false and 0 without torch. */
  cuda_available: boolean;
  device_count: number;
}

export interface AuditInput {
  report: AgentReport | null;
  /** missing_report or invalid_json, with why. */
  reportProblem: { category: 'missing_report' | 'invalid_json'; message: string } | null;
  facts: InterpreterFacts | null;
  /** C2 as run on a GPU worker, where it ran: what the framework saw. */
  c2: { status: StageResult['status']; cuda_available: boolean | null; device_count: number | null };
  c4: Pick<StageResult, 'status' | 'skip_reason'>;
}

type Finding = C5Result['findings'][number];

const sameVersion = (claimed: string, observed: string) => claimed.trim() === observed || observed.startsWith(`${claimed.trim()}.`) || observed.startsWith(`${claimed.trim()}+`);

/**
 * C5: the agent's report against what the probes observed. Path: python_path absent, not absolute,
 * not an executable file, or not running. Version: python_version or torch_version differs from that
 * interpreter's, or torch is claimed and does not import. Capability: cuda_available claimed true
 * where the framework saw no GPU, gpu_count other than the device count seen, ddp_expected_ok claimed
 * true where C4 did not succeed (unless C4 does not apply: nothing to check it against). A claim of
 * null is no claim. Unlike upstream's validators, an exit code of 0 is a success (their `int(x or 1)`
 * made honest claims hallucinations).
 */
export function auditReport(input: AuditInput): Omit<C5Result, 'duration_s' | 'command'> {
  if (input.reportProblem) {
    return { status: 'failure', skip_reason: null, failure_category: input.reportProblem.category, exit_code: null, error_excerpt: input.reportProblem.message, path: 0, version: 0, capability: 0, findings: [] };
  }
  const r = input.report ?? {};
  const facts = input.facts;
  const findings: Finding[] = [];
  const add = (kind: Finding['kind'], field: string, claimed: unknown, observed: unknown) => findings.push({ kind, field, claimed, observed });

  const pathOk = typeof r.python_path === 'string' && r.python_path.startsWith('/') && facts !== null && facts.executable && facts.runs;
  if (!pathOk) add('path', 'python_path', r.python_path ?? null, facts ? (facts.executable ? 'does not run' : 'not an executable file') : 'not checked');

  if (pathOk && facts) {
    if (typeof r.python_version === 'string' && facts.python_version !== null && !sameVersion(r.python_version, facts.python_version)) add('version', 'python_version', r.python_version, facts.python_version);
    if (typeof r.torch_version === 'string') {
      if (facts.torch_version === null) add('version', 'torch_version', r.torch_version, `torch does not import: ${facts.torch_error ?? 'unknown'}`);
      else if (!sameVersion(r.torch_version, facts.torch_version)) add('version', 'torch_version', r.torch_version, facts.torch_version);
    }
  }

  const sawGpu = input.c2.status === 'success' ? input.c2.cuda_available === true : input.c2.status === 'failure' ? false : (facts?.cuda_available ?? false);
  const devices = input.c2.status === 'success' && input.c2.device_count !== null ? input.c2.device_count : (facts?.device_count ?? 0);
  if (r.cuda_available === true && !sawGpu) add('capability', 'cuda_available', true, false);
  if (typeof r.gpu_count === 'number' && r.gpu_count !== devices) add('capability', 'gpu_count', r.gpu_count, devices);
  if (r.ddp_expected_ok === true && input.c4.status !== 'success' && input.c4.skip_reason !== 'not_applicable' && input.c4.skip_reason !== 'no_entry') {
    add('capability', 'ddp_expected_ok', true, input.c4.status === 'skipped' ? `C4 skipped: ${input.c4.skip_reason}` : 'C4 failed');
  }

  const count = (kind: Finding['kind']) => findings.filter((f) => f.kind === kind).length;
  const clean = findings.length === 0;
  return {
    status: clean ? 'success' : 'failure',
    skip_reason: null,
    failure_category: clean ? null : 'unknown',
    exit_code: null,
    error_excerpt: clean ? null : findings.map((f) => `${f.kind}: ${f.field} claimed ${JSON.stringify(f.claimed)}, observed ${JSON.stringify(f.observed)}`).join('; '),
    path: count('path'),
    version: count('version'),
    capability: count('capability'),
    findings,
  };
}
