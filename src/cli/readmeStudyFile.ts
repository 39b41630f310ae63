import * as fs from 'node:fs';
import { refuseTooLarge } from './studyFileError';
import * as path from 'node:path';
import { z } from 'zod';
import { studyAgentSpec } from '../agents/registry/studyField';
import { OpenAISpec } from '../domain/agentSpec';
import type { ReadmeInstanceRef } from '../domain/readme';
import type { RepoSource } from '../domain/readinessStudy';
import type { JudgeSpec, ReadmeAgentSpec, ReadmeInstanceSpec, ReadmeStudyInput } from '../domain/readmeStudy';
import { archiveName, readPinnedRepositories } from '../readme/repoInfo';
import { selectInstances, type InstanceSelection } from '../readme/selection';
import { PROTOCOL_LIMIT_DEFAULTS } from '../domain/sandboxLimits';
import { sandboxLimitsObject } from './sandboxLimitsField';
import { parseStudyYaml, STUDY_CAPS, StudyFileError, studyProtocol, validateStudyYaml, withoutKey } from './studyFile';

const Name = z.string().min(1).max(256);
const Judge = z.union([
  z.literal('deterministic').transform(() => ({ kind: 'deterministic' as const })),
  z.strictObject({ kind: z.literal('deterministic') }),
  z.strictObject({ kind: z.literal('openai'), base_url: OpenAISpec.shape.base_url, model: OpenAISpec.shape.model, api_key_env: OpenAISpec.shape.api_key_env, timeout_s: z.number().positive().max(3600).default(120) }),
]);

export const ReadmeStudyFile = z.strictObject({
  name: z.string().max(STUDY_CAPS.name).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'study name must be letters, digits, ".", "_" or "-"'),
  /** The EnConda-Bench data folder, relative to the study file; without it, $ENVGAP_ENCONDA_DATA. */
  data: z.string().min(1).max(STUDY_CAPS.resolvedPath).optional(),
  instances: z.union([z.literal('all'), z.array(Name).min(1).max(10_000), z.strictObject({ repos: z.array(Name).min(1).max(1000), limit: z.number().int().min(1).optional() })]),
  split: z.strictObject({ by: z.literal('repo'), seed: z.number().int(), test_share: z.number().gt(0).lt(1), part: z.enum(['test', 'train']).default('test') }).optional(),
  /** Where repositories come from at their pinned revision: a folder of <owner>__<name>.tar.gz, and/or a git host (<git>/<owner>/<name>.git). */
  sources: z.strictObject({ archives: z.string().min(1).max(STUDY_CAPS.resolvedPath).optional(), git: z.url().optional() }).default({}),
  agents: z.array(studyAgentSpec('readme')).min(1).max(STUDY_CAPS.agents),
  trials: z.number().int().min(1).max(STUDY_CAPS.trials).default(1),
  concurrency: z.number().int().min(1).max(STUDY_CAPS.concurrency).default(2),
  judge: Judge.default({ kind: 'deterministic' }),
  pass: z.strictObject({ run: z.boolean().default(true), timeout_s: z.number().int().min(1).max(86_400).default(600) }).default({ run: true, timeout_s: 600 }),
  agent_timeout_s: z.number().int().min(1).max(86_400).default(1800),
  limits: sandboxLimitsObject(PROTOCOL_LIMIT_DEFAULTS.readme),
});

/**
 * Parses a study file of `protocol: readme`: the instances are selected from the data set (listed by
 * `list`), each with its pinned repository and where its files come from. Relative paths resolve
 * against the study file's folder.
 */
export function parseReadmeStudyFile(text: string, file: string, list: (dataDir: string) => ReadmeInstanceRef[]): ReadmeStudyInput {
  const yaml = parseStudyYaml(text, file);
  const protocol = studyProtocol(yaml);
  if (protocol !== 'readme') throw new StudyFileError(file, [`${yaml.where(['protocol'])}: expected protocol: readme, found ${protocol}`]);
  const s = validateStudyYaml({ ...yaml, data: withoutKey(yaml.data, 'protocol') }, ReadmeStudyFile, file);
  const dir = path.dirname(path.resolve(file));
  const dataDir = s.data ? path.resolve(dir, s.data) : process.env.ENVGAP_ENCONDA_DATA;
  if (!dataDir) throw new StudyFileError(file, [`${yaml.where(['data'])}: name the EnConda-Bench data folder (data:) or set ENVGAP_ENCONDA_DATA`]);
  if (!fs.existsSync(path.join(dataDir, 'Enconda-bench'))) throw new StudyFileError(file, [`${yaml.where(s.data ? ['data'] : [])}: no EnConda-Bench data set at ${dataDir} (it needs Enconda-bench/ and repo_info.jsonl)`]);
  let selected: ReadmeInstanceRef[];
  try {
    selected = selectInstances(list(dataDir), s.instances as InstanceSelection, s.split ? { by: 'repo', seed: s.split.seed, testShare: s.split.test_share, part: s.split.part } : undefined);
  } catch (err) {
    throw new StudyFileError(file, [`${yaml.where(['instances'])}: ${(err as Error).message}`]);
  }
  if (selected.length === 0) throw new StudyFileError(file, [`${yaml.where(['instances'])}: selects no instance`]);
  const pinned = readPinnedRepositories(dataDir);
  const archives = path.resolve(dir, s.sources.archives ?? path.join(dataDir, 'repos'));
  const instances: ReadmeInstanceSpec[] = selected.map((ref) => {
    const pin = pinned.get(ref.repo) ?? null;
    let source: RepoSource | null = null;
    if (pin) {
      const archive = path.join(archives, archiveName(pin.repository));
      if (fs.existsSync(archive)) source = { kind: 'archive', path: archive };
      else if (s.sources.git) source = { kind: 'git', url: `${s.sources.git.replace(/\/+$/, '')}/${pin.repository}.git`, commit: pin.revision };
    }
    return { name: ref.name, repoFolder: ref.repoFolder, repository: pin?.repository ?? null, source };
  });
  const agents: ReadmeAgentSpec[] = s.agents.map((a) => (a.kind === 'replay' ? { ...a, path: path.resolve(dir, a.path) } : a));
  const seen = new Set<string>();
  agents.forEach((a, i) => {
    if (seen.has(a.name)) throw new StudyFileError(file, [`${yaml.where(['agents', i, 'name'])}: agent "${a.name}" is listed twice`]);
    seen.add(a.name);
  });
  const study: ReadmeStudyInput = {
    name: s.name,
    protocol: 'readme',
    dataDir,
    agents,
    instances,
    trials: s.trials,
    concurrency: s.concurrency,
    judge: s.judge as JudgeSpec,
    pass: { run: s.pass.run, timeoutS: s.pass.timeout_s },
    agentTimeoutS: s.agent_timeout_s,
    memoryMb: s.limits.memory_mb,
    cpus: s.limits.cpus,
    limits: s.limits,
  };
  return refuseTooLarge(study, file, yaml.where(['instances']), 'instances');
}
