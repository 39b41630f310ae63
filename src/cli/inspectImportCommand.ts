import * as fs from 'node:fs';
import * as path from 'node:path';
import { IMPORTED_PROMPT_CHARS } from '../domain/study';
import { gapReplayStudy, type GapReplayImport, type ImportedProject } from '../importers/gapReplayStudy';
import { openInspectLog } from '../importers/inspectLogFile';
import { inspectSampleFiles, projectFiles } from '../importers/inspectSample';
import { gapStudyYaml, writeGapRecordings } from './gapRecordings';
import { prepareRecordings, recordingsDir } from './harborImportCommand';
import { say } from './say';

export interface InspectImportOptions {
  out: string;
  name?: string;
  /** The sandbox's working directory: relative paths are under it, and it is the project's root. */
  workdir?: string;
}

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').replace(/-+$/, '').slice(0, 60) || 'x';

function evalSpec(header: unknown, file: string): { task: string; model: string; created: string } {
  const spec = (header as { eval?: { task?: unknown; model?: unknown; created?: unknown } } | null)?.eval;
  if (typeof spec?.task !== 'string' || typeof spec.model !== 'string') throw new Error(`${file}: its header has no eval.task and eval.model: not an Inspect log`);
  return { task: spec.task, model: spec.model, created: typeof spec.created === 'string' ? spec.created : '' };
}

/**
 * `envgap import inspect LOG... --out STUDY.yaml`: the samples of Inspect AI logs whose files the log
 * carries, as projects of replay agents (each model one, each sample an imported task) in an
 * environment gap study; says per sample what could not be converted (also at the top of the file).
 */
export function importInspectCommand(logs: readonly string[], opts: InspectImportOptions): GapReplayImport {
  const out = path.resolve(opts.out);
  const recordings = recordingsDir(out);
  const projects: ImportedProject[] = [];
  const unconverted: string[] = [];
  const tasks = new Set<string>();
  for (const file of logs) {
    const log = openInspectLog(file);
    try {
      const spec = evalSpec(log.header, file);
      tasks.add(spec.task);
      if (log.sampleNames.length === 0) unconverted.push(`${path.basename(file)}: no sample in the log`);
      for (const name of log.sampleNames) {
        let where = `${path.basename(file)} ${name}`;
        try {
          const s = inspectSampleFiles(log.sample(name), where);
          where = `${path.basename(file)} sample ${s.id} epoch ${s.epoch}`;
          const p = projectFiles(s.files, opts.workdir ?? null);
          for (const problem of [...s.problems, ...p.problems]) unconverted.push(`${where}: ${problem}`);
          if (p.files.length === 0) {
            unconverted.push(`${where}: no file the agent wrote is in the log, so no project`);
            continue;
          }
          let prompt = s.prompt || `(Inspect task ${spec.task}, sample ${s.id}: no text input)`;
          if (prompt.length > IMPORTED_PROMPT_CHARS) {
            unconverted.push(`${where}: its input cut to ${IMPORTED_PROMPT_CHARS} characters (of ${prompt.length}) as the prompt recorded`);
            prompt = prompt.slice(0, IMPORTED_PROMPT_CHARS);
          }
          projects.push({
            agent: clean(spec.model),
            task: { id: `${clean(spec.task.split('/').pop()!)}-${clean(s.id)}`, title: `Inspect task ${spec.task}, sample ${s.id}`, domain: 'inspect', prompt },
            files: p.files,
            meta: { tokens_in: s.tokens.input, tokens_out: s.tokens.output, cost_usd: s.tokens.costUsd },
            from: where,
            order: `${spec.created}\n${String(s.epoch).padStart(6, '0')}`,
            record: { file: 'inspect-sample.json', data: { log: path.basename(file), task: spec.task, model: spec.model, root: p.root, ...s.record } },
          });
        } catch (err) {
          unconverted.push(`${where}: ${(err as Error).message}`);
        }
      }
    } finally {
      log.close();
    }
  }
  const name = opts.name ?? (tasks.size === 1 ? `${clean([...tasks][0]!.split('/').pop()!)}-gap` : 'inspect-gap');
  const imported = gapReplayStudy(projects, { name, recordings: path.relative(path.dirname(out), recordings) || '.' });
  imported.unconverted.unshift(...unconverted);
  if (imported.recordings.length === 0) throw new Error(`import inspect: no sample left a project the log holds:\n  ${imported.unconverted.join('\n  ')}`);
  prepareRecordings(recordings, 'inspect');
  writeGapRecordings(recordings, imported);
  fs.writeFileSync(
    out,
    gapStudyYaml(imported, [
      'From Inspect AI logs (envgap import inspect; docs/inspect.md). Each sample whose files the log holds is iteration 0',
      "of its model's replay: installed and run in a clean container, D1/D2/D3 measured, no repair asked (budget 0).",
      "Each sample is an imported task, its input the prompt recorded; its scores are in inspect-sample.json beside it.",
    ]),
  );
  say(`import inspect: ${imported.notes.join('; ')}; written to ${opts.out} (projects in ${path.relative(path.dirname(out), recordings)}/projects)`);
  if (imported.unconverted.length > 0) say(`import inspect: not converted (${imported.unconverted.length}, also at the top of the file):\n  ${imported.unconverted.join('\n  ')}`);
  return imported;
}
