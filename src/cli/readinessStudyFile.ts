import * as path from 'node:path';
import { refuseTooLarge } from './studyFileError';
import { z } from 'zod';
import { studyAgentSpec } from '../agents/registry/studyField';
import { SUPPORTS } from '../domain/readiness';
import { REPO_SCRIPTS_DIR, type GpuMode, type ReadinessStudyInput, type RepoSource } from '../domain/readinessStudy';
import { PROTOCOL_LIMIT_DEFAULTS } from '../domain/sandboxLimits';
import { sandboxLimitsObject } from './sandboxLimitsField';
import { parseStudyYaml, STUDY_CAPS, StudyFileError, studyProtocol, validateStudyYaml, withoutKey } from './studyFile';

const Id = z.string().max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._@-]*$/, 'must be letters, digits, ".", "_", "-" or "@" (owner@name)');
const Command = z.string().min(1).max(8192);

const Source = z.union([
  z.strictObject({ path: z.string().min(1).max(STUDY_CAPS.resolvedPath) }),
  z.strictObject({ archive: z.string().min(1).max(STUDY_CAPS.resolvedPath) }),
  z.strictObject({ git: z.string().min(1).max(2048), commit: z.string().regex(/^[0-9a-f]{4,40}$/, 'must be a commit hash (4 to 40 hex digits)') }),
]);

const Repo = z
  .strictObject({
    id: Id,
    source: Source,
    // Empty: only C0, C2 and C5 apply (upstream has such repositories).
    supports: z.array(z.enum(SUPPORTS)),
    entry: z.strictObject({ cpu: Command.optional(), single_gpu: Command.optional(), multi_gpu: Command.optional() }).default({}),
    stage_timeout_s: z.number().int().min(1).max(86_400).default(600),
    scripts: z.string().min(1).max(STUDY_CAPS.resolvedPath).optional(),
    prepare: Command.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.scripts !== undefined) return;
    const commands = [...SUPPORTS.map((s) => ({ at: ['entry', s], command: r.entry?.[s] })), { at: ['prepare'], command: r.prepare }];
    for (const { at, command } of commands)
      if (command?.includes(REPO_SCRIPTS_DIR)) ctx.addIssue({ code: 'custom', path: at, message: `runs the scripts at ${REPO_SCRIPTS_DIR}, but the repo names no scripts folder (scripts: PATH)` });
  });

export const ReadinessStudyFile = z
  .strictObject({
    name: z.string().max(STUDY_CAPS.name).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'study name must be letters, digits, ".", "_" or "-"'),
    agents: z.array(studyAgentSpec('readiness')).min(1).max(STUDY_CAPS.agents),
    repos: z.array(Repo).min(1).max(1000),
    trials: z.number().int().min(1).max(STUDY_CAPS.trials).default(1),
    concurrency: z.number().int().min(1).max(STUDY_CAPS.concurrency).default(2),
    budget: z.strictObject({ wall_s: z.number().int().min(1).max(7 * 86_400).default(3600), steps: z.number().int().min(1).max(100_000).default(500), tokens: z.number().int().min(1).nullable().default(null) }).default({ wall_s: 3600, steps: 500, tokens: null }),
    gpu: z.enum(['required', 'auto', 'off']).default('auto'),
    gpu_share: z.boolean().default(false),
    limits: sandboxLimitsObject(PROTOCOL_LIMIT_DEFAULTS.readiness),
  })
  .superRefine((s, ctx) => {
    const seen = new Map<string, number>();
    (Array.isArray(s.repos) ? s.repos : []).forEach((r, i) => {
      if (typeof r?.id !== 'string') return;
      const j = seen.get(r.id);
      if (j !== undefined) ctx.addIssue({ code: 'custom', path: ['repos', i, 'id'], message: `repo "${r.id}" is listed twice (first as repos[${j}])` });
      else seen.set(r.id, i);
    });
  });

/**
 * Parses a study file of `protocol: readiness`; relative paths (replay recordings, repository folders
 * and archives, scripts folders) are resolved against the file's folder. `gpuWorkerAvailable` is the
 * CLI's look at the gpu queue when the study starts, written into the input so that the workflow
 * stays deterministic.
 */
export function parseReadinessStudyFile(text: string, file: string, gpuWorkerAvailable = false): ReadinessStudyInput {
  const yaml = parseStudyYaml(text, file);
  const protocol = studyProtocol(yaml);
  if (protocol !== 'readiness') throw new StudyFileError(file, [`${yaml.where(['protocol'])}: expected protocol: readiness, found ${protocol}`]);
  const s = validateStudyYaml({ ...yaml, data: withoutKey(yaml.data, 'protocol') }, ReadinessStudyFile, file);
  const dir = path.dirname(path.resolve(file));
  // A stage the repository supports but gives no command for is skipped (no_entry), not refused.
  const repos = s.repos.map((r) => {
    const source: RepoSource = 'path' in r.source ? { kind: 'folder', path: path.resolve(dir, r.source.path) } : 'archive' in r.source ? { kind: 'archive', path: path.resolve(dir, r.source.archive) } : { kind: 'git', url: r.source.git, commit: r.source.commit };
    return {
      id: r.id,
      source,
      supports: r.supports,
      entry: r.entry,
      stageTimeoutS: r.stage_timeout_s,
      ...(r.scripts !== undefined ? { scripts: path.resolve(dir, r.scripts) } : {}),
      ...(r.prepare !== undefined ? { prepare: r.prepare } : {}),
    };
  });
  const agents = s.agents.map((a) => (a.kind === 'replay' ? { ...a, path: path.resolve(dir, a.path) } : a));
  const study: ReadinessStudyInput = {
    name: s.name,
    protocol: 'readiness',
    agents,
    repos,
    trials: s.trials,
    concurrency: s.concurrency,
    budget: { wallS: s.budget.wall_s, steps: s.budget.steps, tokens: s.budget.tokens },
    gpu: { mode: s.gpu as GpuMode, workerAvailable: gpuWorkerAvailable },
    ...(s.gpu_share ? { gpuShare: true } : {}),
    memoryMb: s.limits.memory_mb,
    cpus: s.limits.cpus,
    limits: s.limits,
  };
  return refuseTooLarge(study, file, yaml.where(['repos']), 'repos');
}
