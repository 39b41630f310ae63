import * as fs from 'node:fs';
import { refuseTooLarge, StudyFileError } from './studyFileError';
import * as path from 'node:path';
import { LineCounter, parseDocument, isNode, visit, type Document } from 'yaml';
import { z } from 'zod';
import { studyAgentSpec } from '../agents/registry/studyField';
import type { Catalog } from '../catalog/catalog';
import { Language } from '../domain/instance';
import { DEFAULT_CONFIRM_MAX_TRIALS } from '../domain/confirmation/types';
import { DEFAULT_PROMPT_ENVIRONMENT, PROMPT_ENVIRONMENTS } from '../domain/promptEnvironment';
import { resolveAsOfProblem } from '../domain/resolveAsOf';
import { DEFAULT_LIMITS, DEFAULT_SERVICE_GRACE_S, IMPORTED_PROMPT_CHARS, type StudyInput, type TaskRef } from '../domain/study';
import { SANDBOX_LIMIT_CAPS, sandboxLimitFields, shmWithinMemory } from './sandboxLimitsField';

/**
 * Upper limits of a study file. They keep a study's workflow input small (the largest allowed study is
 * measured in test/unit/cli/studyFile.test.ts, far below Temporal's 2 MB payload limit) and refuse, with
 * the field named, what would otherwise exhaust memory or fail only in Docker.
 */
export const STUDY_CAPS = {
  /** The file itself, checked before it is read whole or parsed. */
  fileBytes: 1024 * 1024,
  /** YAML alias expansions (the yaml package's maxAliasCount). */
  aliases: 100,
  name: 64,
  agents: 50,
  trials: 1000,
  budget: 100,
  concurrency: 256,
  instances: 100_000,
  /** A replay path once resolved against the study file's folder. */
  resolvedPath: 2048,
  /** Problems listed in one error; the rest are counted. */
  problems: 20,
  /** Trials of one instance's phantom confirmation. */
  confirmMaxTrials: 1000,
  limits: {
    ...SANDBOX_LIMIT_CAPS,
    install_timeout_s: 21_600,
    run_timeout_s: 21_600,
    service_grace_s: 600,
  },
} as const;

const atMost = (n: number, what = '') => `at most ${n.toLocaleString('en-US')}${what}`;

/** The sandbox's limits (the same in every protocol: src/cli/sandboxLimitsField.ts) and the gap protocol's time limits. */
const Limits = z
  .strictObject({
    ...sandboxLimitFields(),
    install_timeout_s: z.number().int().positive().max(STUDY_CAPS.limits.install_timeout_s, atMost(STUDY_CAPS.limits.install_timeout_s, ' s (6 hours)')).default(DEFAULT_LIMITS.install_timeout_s),
    run_timeout_s: z.number().int().positive().max(STUDY_CAPS.limits.run_timeout_s, atMost(STUDY_CAPS.limits.run_timeout_s, ' s (6 hours)')).default(DEFAULT_LIMITS.run_timeout_s),
    service_grace_s: z.number().int().min(1).max(STUDY_CAPS.limits.service_grace_s, atMost(STUDY_CAPS.limits.service_grace_s, ' s')).default(DEFAULT_SERVICE_GRACE_S),
  })
  .superRefine((l, ctx) => shmWithinMemory(l, ctx, []));

const TaskList = z.union([z.literal('all'), z.array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'task ids look like p_01 (the catalog\'s) or are an imported task\'s: letters, digits, "_" or "-"')).min(1)]);

/** A task from outside the catalog (a Harbor task, an Inspect sample), with the prompt its agent was given (docs/harbor.md). */
const ImportedTask = z.strictObject({
  id: z.string().max(128, 'at most 128 characters').regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'task id must be letters, digits, "_" or "-"'),
  title: z.string().min(1).max(512, 'at most 512 characters'),
  domain: z.string().min(1).max(128, 'at most 128 characters'),
  prompt: z.string().min(1).max(IMPORTED_PROMPT_CHARS, `at most ${IMPORTED_PROMPT_CHARS} characters`),
});

/** Each repeated value of a list is an issue at its index, naming where it was first given. */
function duplicates(list: unknown, at: (string | number)[], what: (v: string) => string, ctx: z.RefinementCtx): void {
  if (!Array.isArray(list)) return;
  const first = new Map<string, number>();
  list.forEach((v, i) => {
    if (typeof v !== 'string') return;
    const j = first.get(v);
    if (j === undefined) first.set(v, i);
    else ctx.addIssue({ code: 'custom', path: [...at, i], message: `${what(v)} is listed twice (first as ${fieldName([...at, j])})` });
  });
}

export const StudyFile = z
  .strictObject({
    name: z
      .string()
      .max(STUDY_CAPS.name, atMost(STUDY_CAPS.name, ' characters'))
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'study name must be letters, digits, ".", "_" or "-"'),
    agents: z.array(studyAgentSpec('gap')).min(1).max(STUDY_CAPS.agents, atMost(STUDY_CAPS.agents, ' agents')),
    languages: z.array(Language).min(1),
    tasks: z.union([TaskList, z.partialRecord(Language, TaskList)]),
    trials: z.number().int().min(1).max(STUDY_CAPS.trials, atMost(STUDY_CAPS.trials, ' trials')).default(1),
    budget: z.number().int().min(0).max(STUDY_CAPS.budget, atMost(STUDY_CAPS.budget, ' repairs')).default(10),
    concurrency: z.number().int().min(1).max(STUDY_CAPS.concurrency, atMost(STUDY_CAPS.concurrency)).default(4),
    limits: Limits.default(Limits.parse({})),
    /** Phantom confirmation of every successful instance by removal trials (docs/confirmation.md). */
    confirm_phantoms: z.boolean().default(false),
    /** The trials one instance's confirmation may run (the unchanged project's runs included). */
    confirm_max_trials: z.number().int().min(1).max(STUDY_CAPS.confirmMaxTrials, atMost(STUDY_CAPS.confirmMaxTrials, ' trials')).optional(),
    /** The environment the prompts state: the images' real facts, or the paper's text (docs/prompts.md). */
    prompt_environment: z.enum(PROMPT_ENVIRONMENTS).default(DEFAULT_PROMPT_ENVIRONMENT),
    /** Tasks that are not the catalog's, named in `tasks` by their ids (written by `envgap import harbor|inspect --protocol gap`). */
    imported_tasks: z.array(ImportedTask).max(10_000, atMost(10_000, ' imported tasks')).optional(),
    /** Resolve pip and npm installs as the registries stood at 00:00 UTC of this day (docs/resolution.md). */
    resolve_as_of: z
      .string()
      .superRefine((v, ctx) => {
        const problem = resolveAsOfProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  })
  .superRefine((s, ctx) => {
    if (s.confirm_max_trials !== undefined && s.confirm_phantoms !== true) {
      ctx.addIssue({ code: 'custom', path: ['confirm_max_trials'], message: 'confirm_max_trials is for phantom confirmation: give confirm_phantoms: true too' });
    }
    // Runs even when fields failed, so nothing here trusts a field's type.
    const languages = Array.isArray(s.languages) ? s.languages : [];
    if (s.tasks && typeof s.tasks === 'object' && !Array.isArray(s.tasks)) {
      const perLanguage = s.tasks;
      languages.forEach((l, i) => {
        if (!perLanguage[l]) ctx.addIssue({ code: 'custom', path: ['languages', i], message: `"tasks" lists tasks per language but none for ${l}` });
      });
      for (const [l, list] of Object.entries(perLanguage)) duplicates(list, ['tasks', l], (v) => `task "${v}"`, ctx);
    } else {
      duplicates(s.tasks, ['tasks'], (v) => `task "${v}"`, ctx);
    }
    duplicates(languages, ['languages'], (v) => `language ${v}`, ctx);
    if (Array.isArray(s.imported_tasks)) duplicates(s.imported_tasks.map((t) => t?.id), ['imported_tasks'], (v) => `imported task "${v}"`, ctx);
    const agentAt = new Map<unknown, number>();
    (Array.isArray(s.agents) ? s.agents : []).forEach((a, i) => {
      const j = agentAt.get(a?.name);
      if (j !== undefined) ctx.addIssue({ code: 'custom', path: ['agents', i, 'name'], message: `agent name "${a.name}" is used twice (first by agents[${j}])` });
      else if (typeof a?.name === 'string') agentAt.set(a.name, i);
    });
  });
export type StudyFile = z.infer<typeof StudyFile>;

export { StudyFileError } from './studyFileError';

/**
 * Reads a study file, refusing what is not one before it is read whole: a missing file (saying where it
 * was looked for), a folder, a device, an unreadable file, a file over the size limit.
 */
export function readStudyFile(file: string): string {
  const abs = path.resolve(file);
  const fail = (why: string): never => {
    throw new Error(`study file ${why}: ${file}${abs !== file ? ` (looked in ${abs})` : ''}`);
  };
  const because = (err: unknown): never => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') fail('not found');
    if (code === 'EACCES' || code === 'EPERM') fail('not readable (permission denied)');
    if (code === 'EISDIR') fail('is a directory, not a file');
    throw new Error(`study file cannot be read: ${file} (${abs}): ${(err as Error).message}`);
  };
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch (err) {
    return because(err);
  }
  if (st.isDirectory()) fail('is a directory, not a file');
  if (!st.isFile()) fail('is not a regular file');
  const tooBig = (size: string) =>
    new StudyFileError(file, [`${file}: the file is ${size}; a study file is at most ${STUDY_CAPS.fileBytes.toLocaleString('en-US')} bytes (1 MiB)`]);
  if (st.size > STUDY_CAPS.fileBytes) throw tooBig(`${st.size.toLocaleString('en-US')} bytes`);
  let fd: number;
  try {
    fd = fs.openSync(abs, 'r');
  } catch (err) {
    return because(err);
  }
  try {
    // At most one byte past the limit, whatever the file grew to since it was looked at.
    const buf = Buffer.alloc(STUDY_CAPS.fileBytes + 1);
    let n = 0;
    for (let r = -1; r !== 0 && n < buf.length; n += r) r = fs.readSync(fd, buf, n, buf.length - n, null);
    if (n > STUDY_CAPS.fileBytes) throw tooBig('over the limit');
    return buf.subarray(0, n).toString('utf8');
  } catch (err) {
    if (err instanceof StudyFileError) throw err;
    return because(err);
  } finally {
    fs.closeSync(fd);
  }
}

function positionOf(doc: Document, lines: LineCounter, at: (string | number)[]): string {
  for (let n = at.length; n >= 0; n--) {
    const node = doc.getIn(at.slice(0, n), true);
    if (isNode(node) && node.range) {
      const { line, col } = lines.linePos(node.range[0]);
      return `${line}:${col}`;
    }
  }
  return '1:1';
}

function fieldName(at: PropertyKey[]): string {
  return at.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '') || '(top level)';
}

/** The first problems, and a count of the others: a file of 100,000 bad entries gets a short error. */
function refuse(file: string, problems: string[]): never {
  const shown = problems.slice(0, STUDY_CAPS.problems);
  if (problems.length > shown.length) shown.push(`… and ${(problems.length - shown.length).toLocaleString('en-US')} more problems`);
  throw new StudyFileError(file, shown);
}

function firstAlias(doc: Document, lines: LineCounter): string {
  let at = '1:1';
  visit(doc, {
    Alias(_, node) {
      if (node.range) {
        const { line, col } = lines.linePos(node.range[0]);
        at = `${line}:${col}`;
      }
      return visit.BREAK;
    },
  });
  return at;
}

/** Reads, parses and validates a study file (see readStudyFile and parseStudyFile). */
export function loadStudyFile(file: string, catalog: Catalog): StudyInput {
  return parseStudyFile(readStudyFile(file), file, catalog);
}

/** A study file's YAML, parsed, with where each field is for error messages. */
export interface StudyYaml {
  data: unknown;
  /** `file:line:col: field` of a field, for a problem found after validation. */
  where(at: (string | number)[]): string;
}

/** Parses a study file's YAML (size, syntax and alias limits), every problem naming its line. */
export function parseStudyYaml(text: string, file: string): StudyYaml {
  if (Buffer.byteLength(text, 'utf8') > STUDY_CAPS.fileBytes) {
    throw new StudyFileError(file, [`${file}: the file is over the limit; a study file is at most ${STUDY_CAPS.fileBytes.toLocaleString('en-US')} bytes (1 MiB)`]);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    refuse(file, doc.errors.map((e) => {
      const { line, col } = lines.linePos(e.pos[0]);
      return `${file}:${line}:${col}: YAML: ${e.message.split('\n')[0]}`;
    }));
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: STUDY_CAPS.aliases });
  } catch (err) {
    if (err instanceof ReferenceError && /alias/i.test(err.message)) {
      throw new StudyFileError(file, [
        `${file}:${firstAlias(doc, lines)}: YAML: its aliases expand to too much (a YAML alias bomb?); a study file may expand at most ${STUDY_CAPS.aliases} aliases`,
      ]);
    }
    throw new StudyFileError(file, [`${file}:1:1: YAML: ${(err as Error).message.split('\n')[0]}`]);
  }
  return { data, where: (at) => `${file}:${positionOf(doc, lines, at)}: ${fieldName(at)}` };
}

/** Validates parsed YAML against a schema; every problem names the field and its line. */
export function validateStudyYaml<T extends z.ZodType>(yaml: StudyYaml, schema: T, file: string): z.infer<T> {
  const parsed = schema.safeParse(yaml.data);
  if (!parsed.success) {
    // Positions only for the problems shown; the rest are counted.
    refuse(file, parsed.error.issues.map((i, n) => {
      if (n >= STUDY_CAPS.problems) return '';
      const at = i.path.filter((k): k is string | number => typeof k !== 'symbol');
      return `${yaml.where(at)}: ${i.message}`;
    }));
  }
  return parsed.data;
}

/** An object without one key (`protocol`, once dispatched on); anything else as it is. */
export function withoutKey(data: unknown, key: string): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([k]) => k !== key));
}

/** The protocol a study file is for: `protocol:`, the environment gap protocol when absent. */
export function studyProtocol(yaml: StudyYaml): string {
  const p = (yaml.data as { protocol?: unknown } | null)?.protocol;
  return typeof p === 'string' ? p : 'envgap';
}

/** Parses and validates a study file; every problem names the field and its line in the file. */
export function parseStudyFile(text: string, file: string, catalog: Catalog): StudyInput {
  const yaml = parseStudyYaml(text, file);
  const protocol = studyProtocol(yaml);
  if (protocol !== 'envgap') throw new StudyFileError(file, [`${yaml.where(['protocol'])}: this is a study of the ${protocol} protocol, not of the environment gap protocol`]);
  const s = validateStudyYaml({ ...yaml, data: withoutKey(yaml.data, 'protocol') }, StudyFile, file);
  const problems: string[] = [];
  const problem = (at: (string | number)[], message: string) => problems.push(`${yaml.where(at)}: ${message}`);
  const imported = new Map((s.imported_tasks ?? []).map((t) => [t.id, t]));
  (s.imported_tasks ?? []).forEach((t, i) => {
    if (catalog.tasks.some((c) => c.id === t.id)) problem(['imported_tasks', i, 'id'], `"${t.id}" is a catalog task's id; an imported task needs another`);
  });
  const resolve = (list: 'all' | string[], at: (string | number)[]): TaskRef[] =>
    (list === 'all' ? catalog.tasks.map((t) => t.id) : list).flatMap((id, i) => {
      const own = imported.get(id);
      if (own) return [{ id: own.id, title: own.title, domain: own.domain, prompt: own.prompt }];
      try {
        const t = catalog.task(id);
        return [{ id: t.id, title: t.title, domain: t.domain }];
      } catch (err) {
        problem([...at, i], (err as Error).message);
        return [];
      }
    });
  let tasks: TaskRef[] = [];
  let tasksByLanguage: StudyInput['tasksByLanguage'];
  if (s.tasks === 'all' || Array.isArray(s.tasks)) {
    tasks = resolve(s.tasks, ['tasks']);
  } else {
    const perLanguage = s.tasks;
    tasksByLanguage = Object.fromEntries(s.languages.map((l) => [l, resolve(perLanguage[l]!, ['tasks', l])]));
  }
  const dir = path.dirname(path.resolve(file));
  const agents = s.agents.map((a, i) => {
    if (a.kind !== 'replay' && a.kind !== 'static') return a;
    const resolved = path.resolve(dir, a.path);
    if (resolved.length > STUDY_CAPS.resolvedPath) {
      problem(['agents', i, 'path'], `resolves to a path of ${resolved.length} characters (${atMost(STUDY_CAPS.resolvedPath)})`);
    }
    return { ...a, path: resolved };
  });
  const count = s.agents.length * s.trials * s.languages.reduce((n, l) => n + (tasksByLanguage?.[l] ?? tasks).length, 0);
  if (count > STUDY_CAPS.instances) {
    problem(['trials'], `the study has ${count.toLocaleString('en-US')} instances (agents × tasks of each language × trials); ${atMost(STUDY_CAPS.instances)}`);
  }
  if (problems.length) refuse(file, problems);
  const study: StudyInput = { name: s.name, agents, languages: s.languages, tasks, ...(tasksByLanguage ? { tasksByLanguage } : {}), trials: s.trials, budget: s.budget, concurrency: s.concurrency, limits: s.limits, ...(s.confirm_phantoms ? { confirmPhantoms: { maxTrials: s.confirm_max_trials ?? DEFAULT_CONFIRM_MAX_TRIALS } } : {}), promptEnvironment: s.prompt_environment, ...(s.resolve_as_of ? { resolveAsOf: s.resolve_as_of } : {}) };
  return refuseTooLarge(study, file, yaml.where(['tasks']), 'tasks');
}
