import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { DetectedError, ReadmeAnswer, ReadmeInstanceRef } from '../domain/readme';
import { describeIssues } from '../text/zodIssues';

/**
 * EnConda-Bench's output layout. Its inference (environment_processor + output_manager) writes
 * `results/<repo>_<instance>/<instance>_errors.json` and `<instance>_setup.sh` beside it, where <repo>
 * is the `error_gen_` folder's name without the prefix; its evaluator reads every `*.json` whose name
 * holds "error" in any direct subfolder of the results folder, and takes the instance from the JSON's
 * `readme_name`. We read the same, so `results/<anything>/<readme_name>_errors.json` also works.
 */
const PredictedErrorJson = z.object({
  error_type: z.string(),
  error_description: z.string(),
  fix_answer: z.string(),
});
const ErrorsJson = z.object({
  repo_name: z.string().optional(),
  readme_name: z.string().optional(),
  errors: z.array(PredictedErrorJson).default([]),
});

const ERRORS_SUFFIX = '_errors.json';
const SETUP_SUFFIX = '_setup.sh';

export interface EncondaPrediction extends ReadmeAnswer {
  /** The errors file it was read from. */
  file: string;
}

function parseErrorsJson(file: string): { readmeName: string; errors: DetectedError[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not JSON: ${(e as Error).message}`);
  }
  const parsed = ErrorsJson.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: not an EnConda errors file: ${describeIssues(parsed.error).join('; ')}`);
  const base = path.basename(file);
  const fromName = base.endsWith(ERRORS_SUFFIX) ? base.slice(0, -ERRORS_SUFFIX.length) : base.replace(/\.json$/i, '');
  const readmeName = parsed.data.readme_name !== undefined && parsed.data.readme_name !== '' ? parsed.data.readme_name : fromName;
  const errors = parsed.data.errors.map((e) => ({ error_type: e.error_type, error_description: e.error_description, fix_suggestion: e.fix_answer }));
  return { readmeName, errors };
}

/** A results folder, or the output folder above it (upstream's `--output_dir`, holding `results/`). */
function resultsRoot(dir: string): string {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`predictions folder not found: ${dir}`);
  const inner = path.join(dir, 'results');
  return fs.existsSync(inner) && fs.statSync(inner).isDirectory() ? inner : dir;
}

/** Every prediction in an EnConda results folder, keyed by instance name; two files for one instance is an error. */
export function readEncondaPredictions(dir: string): Map<string, EncondaPrediction> {
  const root = resultsRoot(dir);
  const out = new Map<string, EncondaPrediction>();
  const subdirs = fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory());
  for (const sub of subdirs) {
    const folder = path.join(root, sub.name);
    const jsons = fs.readdirSync(folder).filter((n) => n.toLowerCase().endsWith('.json') && n.toLowerCase().includes('error'));
    for (const name of jsons) {
      const file = path.join(folder, name);
      const { readmeName, errors } = parseErrorsJson(file);
      const seen = out.get(readmeName);
      if (seen !== undefined) throw new Error(`predictions: ${seen.file} and ${file} both answer ${readmeName}`);
      const script = path.join(folder, `${readmeName}${SETUP_SUFFIX}`);
      out.set(readmeName, { file, detected_errors: errors, setup_script: fs.existsSync(script) ? fs.readFileSync(script, 'utf8') : null });
    }
  }
  return out;
}

/** The folder upstream's inference writes one instance's answer to: `<repo>_<instance>`. */
export function encondaResultFolder(ref: ReadmeInstanceRef): string {
  return `${ref.repo}_${ref.name}`;
}

/**
 * Writes one answer in upstream's layout under `resultsDir` (created where missing). A null setup script
 * writes no `_setup.sh` (upstream writes a placeholder echo; readEncondaPredictions reads absence as null).
 * Returns the errors file's path.
 */
export function writeEncondaPrediction(resultsDir: string, ref: ReadmeInstanceRef, answer: ReadmeAnswer): string {
  const folder = path.join(resultsDir, encondaResultFolder(ref));
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${ref.name}${ERRORS_SUFFIX}`);
  const json = {
    repo_name: encondaResultFolder(ref),
    readme_name: ref.name,
    errors: answer.detected_errors.map((e) => ({ error_type: e.error_type, error_description: e.error_description, fix_answer: e.fix_suggestion })),
  };
  fs.writeFileSync(file, JSON.stringify(json, null, 2) + '\n');
  if (answer.setup_script !== null) fs.writeFileSync(path.join(folder, `${ref.name}${SETUP_SUFFIX}`), answer.setup_script, { mode: 0o755 });
  return file;
}
