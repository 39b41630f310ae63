import * as path from 'node:path';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { z } from 'zod';
import { AgentSpec } from '../domain/agentSpec';
import type { Catalog } from '../catalog/catalog';
import { Language } from '../domain/instance';
import { DEFAULT_LIMITS, type StudyInput, type TaskRef } from '../domain/study';

const Limits = z.strictObject({
  memory_mb: z.number().int().min(64).default(DEFAULT_LIMITS.memory_mb),
  cpus: z.number().positive().default(DEFAULT_LIMITS.cpus),
  pids: z.number().int().min(16).default(DEFAULT_LIMITS.pids),
  install_timeout_s: z.number().int().positive().default(DEFAULT_LIMITS.install_timeout_s),
  run_timeout_s: z.number().int().positive().default(DEFAULT_LIMITS.run_timeout_s),
});

const TaskList = z.union([z.literal('all'), z.array(z.string().regex(/^p_\d{2}$/, 'task ids look like p_01')).min(1)]);

export const StudyFile = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'study name must be letters, digits, ".", "_" or "-"'),
    agents: z.array(AgentSpec).min(1),
    languages: z.array(Language).min(1),
    tasks: z.union([TaskList, z.partialRecord(Language, TaskList)]),
    trials: z.number().int().min(1).default(1),
    budget: z.number().int().min(0).default(10),
    concurrency: z.number().int().min(1).default(4),
    limits: Limits.default(Limits.parse({})),
  })
  .superRefine((s, ctx) => {
    if (typeof s.tasks === 'object' && !Array.isArray(s.tasks)) {
      const perLanguage = s.tasks;
      s.languages.forEach((l, i) => {
        if (!perLanguage[l]) ctx.addIssue({ code: 'custom', path: ['languages', i], message: `"tasks" lists tasks per language but none for ${l}` });
      });
    }
    const seen = new Set<string>();
    s.agents.forEach((a, i) => {
      if (seen.has(a.name)) ctx.addIssue({ code: 'custom', path: ['agents', i, 'name'], message: `agent name "${a.name}" is used twice` });
      seen.add(a.name);
    });
  });
export type StudyFile = z.infer<typeof StudyFile>;

export class StudyFileError extends Error {
  constructor(readonly file: string, readonly problems: string[]) {
    super(`${file} is not a valid study:\n${problems.map((p) => `  ${p}`).join('\n')}`);
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

/** Parses and validates a study file; every problem names the field and its line in the file. */
export function parseStudyFile(text: string, file: string, catalog: Catalog): StudyInput {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new StudyFileError(file, doc.errors.map((e) => {
      const { line, col } = lines.linePos(e.pos[0]);
      return `${file}:${line}:${col}: YAML: ${e.message.split('\n')[0]}`;
    }));
  }
  const parsed = StudyFile.safeParse(doc.toJS());
  if (!parsed.success) {
    throw new StudyFileError(file, parsed.error.issues.map((i) => {
      const at = i.path.filter((k): k is string | number => typeof k !== 'symbol');
      return `${file}:${positionOf(doc, lines, at)}: ${fieldName(i.path)}: ${i.message}`;
    }));
  }
  const s = parsed.data;
  const problems: string[] = [];
  const resolve = (list: 'all' | string[], at: (string | number)[]): TaskRef[] =>
    (list === 'all' ? catalog.tasks.map((t) => t.id) : list).flatMap((id, i) => {
      try {
        const t = catalog.task(id);
        return [{ id: t.id, title: t.title, domain: t.domain }];
      } catch (err) {
        problems.push(`${file}:${positionOf(doc, lines, [...at, i])}: ${fieldName([...at, i])}: ${(err as Error).message}`);
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
  if (problems.length) throw new StudyFileError(file, problems);
  const dir = path.dirname(path.resolve(file));
  const agents = s.agents.map((a) => (a.kind === 'replay' ? { ...a, path: path.resolve(dir, a.path) } : a));
  return { name: s.name, agents, languages: s.languages, tasks, ...(tasksByLanguage ? { tasksByLanguage } : {}), trials: s.trials, budget: s.budget, concurrency: s.concurrency, limits: s.limits };
}
