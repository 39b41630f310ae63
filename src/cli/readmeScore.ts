import * as fs from 'node:fs';
import { ERROR_TYPES } from '../domain/readme';
import { deterministicJudge, scoreReadmes, type Judge, type ReadmeScores, type ReadmeToScore, type TypeScore } from '../metrics/readme';
import { listReadmeInstances, readGold } from '../readme/dataset';
import { readEncondaPredictions } from '../readme/enconda';
import { openaiJudge } from '../agents/openaiJudge';

export interface ReadmeScoreOptions {
  /** An EnConda results folder (or the output folder holding `results/`). */
  predictions: string;
  /** The data set: shared/data/enconda, or its Enconda-bench folder. */
  gold: string;
  judge: 'deterministic' | 'openai';
  judgeModel?: string;
  judgeBaseUrl?: string;
  judgeApiKeyEnv?: string;
  /** A file of instance names, one a line: score only those (default: every instance of the data set). */
  instances?: string;
  /** Score only the READMEs with a prediction, as upstream does (default: a README without one scores as zero predictions). */
  onlyAnswered?: boolean;
}

export const DEFAULT_JUDGE_MODEL = 'gpt-4o-mini';
export const DEFAULT_JUDGE_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_JUDGE_API_KEY_ENV = 'OPENAI_API_KEY';

export function makeJudge(opts: Pick<ReadmeScoreOptions, 'judge' | 'judgeModel' | 'judgeBaseUrl' | 'judgeApiKeyEnv'>, env: NodeJS.ProcessEnv = process.env): Judge {
  if (opts.judge === 'deterministic') return deterministicJudge;
  return openaiJudge({
    model: opts.judgeModel ?? DEFAULT_JUDGE_MODEL,
    baseUrl: opts.judgeBaseUrl ?? DEFAULT_JUDGE_BASE_URL,
    apiKeyEnv: opts.judgeApiKeyEnv ?? DEFAULT_JUDGE_API_KEY_ENV,
    env,
  });
}

function readInstanceList(file: string): Set<string> {
  return new Set(
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#')),
  );
}

/** `envgap readme score`'s result: the predictions read, every chosen README's gold read, all scored. */
export async function readmeScoreResult(opts: ReadmeScoreOptions, env: NodeJS.ProcessEnv = process.env): Promise<ReadmeScores> {
  const judge = makeJudge(opts, env);
  const predictions = readEncondaPredictions(opts.predictions);
  const all = listReadmeInstances(opts.gold);
  const known = new Set(all.map((r) => r.name));
  for (const [name, p] of predictions) if (!known.has(name)) throw new Error(`readme score: ${p.file} answers ${name}, which is no instance of ${opts.gold}`);
  const chosen = opts.instances === undefined ? null : readInstanceList(opts.instances);
  if (chosen !== null) for (const name of chosen) if (!known.has(name)) throw new Error(`readme score: ${opts.instances} names ${name}, which is no instance of ${opts.gold}`);
  const refs = all.filter((r) => (chosen === null || chosen.has(r.name)) && (!opts.onlyAnswered || predictions.has(r.name)));
  const files: ReadmeToScore[] = refs.map((ref) => ({ instance: ref.name, gold: readGold(opts.gold, ref), predicted: predictions.get(ref.name)?.detected_errors ?? null }));
  return scoreReadmes(files, judge);
}

const num = (x: number | null) => (x === null ? '-' : x.toFixed(3));

/** The summary as a table (the per-file details are in the json). */
export function formatReadmeScoreTable(s: ReadmeScores): string {
  const rows: string[][] = [['', 'tp', 'fp', 'fn', 'precision', 'recall', 'f1']];
  const row = (label: string, t: TypeScore) => [label, String(t.tp), String(t.fp), String(t.fn), num(t.precision), num(t.recall), num(t.f1)];
  rows.push(row('type', s.type));
  for (const t of ERROR_TYPES) rows.push(row(t, s.per_type[t]));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const table = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd());
  const unknown = Object.entries(s.unknown_types);
  return [
    `judge: ${s.judge}`,
    `files: ${s.files} (${s.files_answered} answered; ${s.accuracy_files} with gold errors)`,
    '',
    ...table,
    '',
    `description accuracy: ${num(s.description_accuracy)}`,
    `fix accuracy:         ${num(s.fix_accuracy)}`,
    ...(unknown.length > 0 ? [`types outside the taxonomy (files): ${unknown.map(([t, n]) => `${t} ${n}`).join(', ')}`] : []),
    '',
  ].join('\n');
}

export async function readmeScoreCommand(opts: ReadmeScoreOptions & { format: 'json' | 'table' }): Promise<void> {
  const scores = await readmeScoreResult(opts);
  process.stdout.write(opts.format === 'json' ? JSON.stringify(scores, null, 2) + '\n' : formatReadmeScoreTable(scores));
}
