import { FAILURE_CATEGORIES, type C0Result, type C5Result, type CudaObservation, type FailureCategory, type StageResult } from '../domain/readiness';
import type { ResearchEnvBenchRaw } from '../domain/readinessUpstream';
import type { UpstreamFile } from './researchenvbenchFiles';
import { at, coerceFloat, coerceInt, isObject, normalizeStatus, orInt, type Json, type JsonObject } from './researchenvbenchValues';
import { pythonRound } from '../metrics/readiness/pythonRound';

/** The stage's status as upstream's scorer reads it: `missing` where there is no readable result. */
export function upstreamStatus(file: UpstreamFile): string {
  return file.kind === 'object' ? normalizeStatus(file.value.status) : 'missing';
}

/** derive_c2_cuda_status: success needs the stage's success and a cuda_available that is not false. */
export function upstreamC2Status(file: UpstreamFile): string {
  if (file.kind !== 'object') return 'missing';
  const status = normalizeStatus(file.value.status);
  let available = at(file.value, 'observed', 'cuda_available') ?? null;
  if (available === null) available = at(file.value, 'metrics', 'cuda_available') ?? null;
  if (status === 'success' && available !== false) return 'success';
  if (status === 'skipped') return 'skipped';
  if (available === false) return 'failed';
  return status;
}

function failureCategory(value: Json | undefined): FailureCategory {
  return typeof value === 'string' && (FAILURE_CATEGORIES as readonly string[]).includes(value) ? (value as FailureCategory) : 'unknown';
}

function skipReason(value: Json | undefined): string {
  if (value === 'repo_not_supported' || value === 'not_applicable') return 'not_applicable';
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : 'unknown';
}

function nullableString(value: Json | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A record's stage result from an upstream results.json (absent or unreadable: a failure saying so). */
export function stageResult(file: UpstreamFile): StageResult {
  const empty = { skip_reason: null, exit_code: null, duration_s: null, command: null };
  if (file.kind === 'absent') return { ...empty, status: 'failure', failure_category: 'missing_report', error_excerpt: 'no results.json' };
  if (file.kind === 'invalid') return { ...empty, status: 'failure', failure_category: 'invalid_json', error_excerpt: file.problem };
  const v = file.value;
  const ns = normalizeStatus(v.status);
  const status = ns === 'success' ? 'success' : ns === 'skipped' ? 'skipped' : 'failure';
  const exit = v.exit_code;
  const duration = [v.duration_sec, v.duration_s, v.elapsed_sec].find((d) => typeof d === 'number' && d >= 0);
  return {
    status,
    skip_reason: status === 'skipped' ? skipReason(v.skip_reason) : null,
    failure_category: status === 'failure' ? failureCategory(v.failure_category) : null,
    exit_code: typeof exit === 'number' && Number.isInteger(exit) ? exit : null,
    error_excerpt: nullableString(v.error_excerpt),
    duration_s: typeof duration === 'number' ? duration : null,
    command: nullableString(v.command),
  };
}

/**
 * C3 and C4 on a machine with fewer GPUs than they need: upstream's scripts write a failure
 * (insufficient_hardware in failure_category, skip_reason or meta); the record says skipped.
 */
export function withHardwareSkip(file: UpstreamFile, result: StageResult, machineGpus: number | null, needed: number): StageResult {
  if (file.kind !== 'object' || result.status !== 'failure' || machineGpus === null || machineGpus >= needed) return result;
  const v = file.value;
  const said = v.failure_category === 'insufficient_hardware' || v.skip_reason === 'insufficient_hardware' || at(v, 'meta', 'insufficient_hardware') !== undefined;
  return said ? { ...result, status: 'skipped', skip_reason: 'insufficient_hardware', failure_category: null } : result;
}

export interface PyrightFiles {
  pyright: UpstreamFile;
  analysis: UpstreamFile;
  importsDetected: UpstreamFile;
  baselineImports: UpstreamFile;
}

const TOTAL_KEYS = ['total_imported_packages_count', 'total_imports_count', 'total_imports', 'imports_total', 'total_imported_modules_count', 'total_imported_packages'];

function firstInt(values: (Json | undefined)[]): number | null {
  for (const v of values) {
    const n = coerceInt(v);
    if (n !== null) return n;
  }
  return null;
}

/** C0 as build_row reads it: pyright's counts (top level, then metrics, then meta.metrics), capped. */
export function upstreamC0(files: PyrightFiles): ResearchEnvBenchRaw['c0'] {
  let missing: number | null = null;
  let total: number | null = null;
  if (files.pyright.kind === 'object') {
    const p = files.pyright.value;
    missing = firstInt([p.missing_packages_count, p.missing_imports_count, at(p, 'metrics', 'missing_packages_count'), at(p, 'metrics', 'missing_imports_count'), at(p, 'meta', 'metrics', 'missing_packages_count'), at(p, 'meta', 'metrics', 'missing_imports_count')]);
    total = firstInt([p.total_imported_packages_count, p.total_imports_count, ...TOTAL_KEYS.map((k) => at(p, 'metrics', k)), ...TOTAL_KEYS.map((k) => at(p, 'meta', 'metrics', k))]);
  }
  if (total === null && files.importsDetected.kind === 'object') {
    const d = files.importsDetected.value;
    total = orInt(coerceInt(at(d, 'metrics', 'total_imported_packages_count')), coerceInt(d.total_imported_packages_count), total);
  }
  let totalBaseline: number | null = null;
  if (files.baselineImports.kind === 'object') {
    const b = files.baselineImports.value;
    totalBaseline = orInt(coerceInt(b.total_imported_packages_count), coerceInt(at(b, 'metrics', 'total_imported_packages_count')), coerceInt(at(b, 'meta', 'metrics', 'total_imported_packages_count')));
  }
  if (total !== null && total > 0 && missing !== null && missing > total) missing = total;
  return { missing, total_reported: total, total_baseline: totalBaseline };
}

/** The missing names of analysis.json (top-level, distinct, sorted), where pyright's stage wrote them. */
function missingNames(analysis: UpstreamFile): string[] {
  const names = analysis.kind === 'object' ? analysis.value.missing_packages : undefined;
  if (!Array.isArray(names)) return [];
  const tops = names.filter((n): n is string => typeof n === 'string').map((n) => n.trim().replace(/^\.+/, '').split('.')[0]);
  return [...new Set(tops.filter((n) => n !== ''))].sort();
}

export function c0Result(files: PyrightFiles, total: number): C0Result {
  return { ...stageResult(files.pyright), total: Math.max(0, total), missing: missingNames(files.analysis) };
}

const FRAMEWORKS: Record<string, CudaObservation['framework']> = { pytorch: 'torch', torch: 'torch', tensorflow: 'tensorflow', jax: 'jax' };

export function c2Result(file: UpstreamFile): StageResult & { observed: CudaObservation | null } {
  const base = stageResult(file);
  const derived = upstreamC2Status(file);
  const status = derived === 'success' ? 'success' : derived === 'skipped' ? 'skipped' : 'failure';
  // A stage that succeeded with cuda_available false fails here; its category comes from the file.
  const fromFile = file.kind === 'object' ? failureCategory(file.value.failure_category) : null;
  const result: StageResult = {
    ...base,
    status,
    skip_reason: status === 'skipped' ? base.skip_reason : null,
    failure_category: status === 'failure' ? (base.failure_category ?? fromFile) : null,
  };
  const observed = file.kind === 'object' && isObject(file.value.observed) ? file.value.observed : null;
  if (observed === null || file.kind !== 'object') return { ...result, observed: null };
  const count = coerceInt(observed.gpu_count);
  return {
    ...result,
    observed: {
      framework: typeof file.value.framework === 'string' ? (FRAMEWORKS[file.value.framework] ?? null) : null,
      framework_version: null,
      cuda_available: observed.cuda_available === true,
      device_count: count !== null && count > 0 ? count : 0,
      cuda_version: null,
    },
  };
}

/** read_hallucination_counts: hallucinations.<kind>.count, else metrics.<kind>_hallucinations_count, else 0. */
export function upstreamC5(file: UpstreamFile): ResearchEnvBenchRaw['c5'] {
  const count = (kind: 'path' | 'version' | 'capability') => {
    if (file.kind !== 'object') return 0;
    return coerceInt(at(file.value, 'hallucinations', kind, 'count')) || coerceInt(at(file.value, 'metrics', `${kind}_hallucinations_count`)) || 0;
  };
  return { path: count('path'), version: count('version'), capability: count('capability') };
}

/** Which report field an upstream hallucination item is about, from its type (the types differ by repository). */
const FIELD_BY_TYPE: [string, string][] = [
  ['ddp', 'ddp_expected_ok'],
  ['cuda_available', 'cuda_available'],
  ['gpu_count', 'gpu_count'],
  ['torch', 'torch_version'],
  ['python_version', 'python_version'],
  ['python', 'python_path'],
  ['report', 'python_path'],
];

function findingField(type: string): string {
  return FIELD_BY_TYPE.find(([part]) => type.includes(part))?.[1] ?? (type || 'unknown');
}

function findings(file: UpstreamFile): C5Result['findings'] {
  if (file.kind !== 'object') return [];
  return (['path', 'version', 'capability'] as const).flatMap((kind) => {
    const items = at(file.value, 'hallucinations', kind, 'items');
    if (!Array.isArray(items)) return [];
    return items.filter(isObject).map((item: JsonObject) => ({
      kind,
      field: findingField(typeof item.type === 'string' ? item.type : ''),
      claimed: item.reported ?? null,
      observed: item.observed ?? item.observed_multi_gpu_exit_code ?? item.detail ?? null,
    }));
  });
}

export function c5Result(file: UpstreamFile): C5Result {
  const counts = upstreamC5(file);
  return {
    ...stageResult(file),
    path: Math.max(0, counts.path),
    version: Math.max(0, counts.version),
    capability: Math.max(0, counts.capability),
    findings: findings(file),
  };
}

/** read_env_size_mb: observed.env_prefix_size_MB, else the legacy keys, rounded to 3 decimals. */
export function upstreamEnvSizeMb(file: UpstreamFile): number | null {
  if (file.kind !== 'object') return null;
  const v = file.value;
  const first = coerceFloat(at(v, 'observed', 'env_prefix_size_MB'));
  if (first !== null) return pythonRound(first, 3);
  for (const k of ['env_prefix_size_mb', 'env_size_mb', 'prefix_size_mb', 'env_prefix_size_MB']) {
    const f = coerceFloat(at(v, 'metrics', k) ?? v[k]);
    if (f !== null) return pythonRound(f, 3);
  }
  return null;
}
