import * as fs from 'node:fs';
import * as path from 'node:path';
import { gapReplayStudy, type GapReplayImport } from '../importers/gapReplayStudy';
import { readHarborInputs } from '../importers/harborFiles';
import { harborGapProjects } from '../importers/harborGapProjects';
import { harborTrialTask } from '../importers/harborStudy';
import { writeGapRecordings, gapStudyYaml } from './gapRecordings';
import { prepareRecordings, recordingsDir, type HarborImportOptions } from './harborImportCommand';
import { say } from './say';

const clean = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 60) || 'harbor';

function readInstruction(folder: string): string | null {
  try {
    return fs.readFileSync(path.join(folder, 'instruction.md'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * `envgap import harbor DIR... --protocol gap --out STUDY.yaml`: the trials' final workspaces as an
 * environment gap study of replay agents (each Harbor agent one; each task an imported task with its
 * instruction as the prompt), so D1/D2/D3 of a lab's runs are measured without running the agents
 * again. Says what could not be converted and why (also at the top of the file).
 */
export function importHarborGapCommand(dirs: readonly string[], opts: Omit<HarborImportOptions, 'oracle'>): GapReplayImport {
  const out = path.resolve(opts.out);
  const outDir = path.dirname(out);
  const recordings = recordingsDir(out);
  const rel = (abs: string) => path.relative(outDir, abs) || '.';
  const inputs = readHarborInputs(dirs, opts.tasks ?? [], rel, harborTrialTask);
  if (inputs.trials.length === 0) throw new Error(`import harbor --protocol gap: no Harbor trial (a folder whose result.json has a trial_name) under ${dirs.join(', ')}: the gap protocol measures the projects agents left`);
  const { projects, unconverted } = harborGapProjects(inputs, (task) => readInstruction(task.folder));
  const jobs = new Set(inputs.trials.map((t) => t.job));
  const job = jobs.size === 1 ? inputs.trials[0]!.job : null;
  const imported = gapReplayStudy(projects, { name: opts.name ?? (job ? `${clean(job)}-gap` : 'harbor-gap'), recordings: rel(recordings) });
  imported.unconverted.unshift(...unconverted);
  if (imported.recordings.length === 0) throw new Error(`import harbor --protocol gap: no trial left a project:\n  ${imported.unconverted.join('\n  ')}`);
  prepareRecordings(recordings);
  writeGapRecordings(recordings, imported);
  fs.writeFileSync(
    out,
    gapStudyYaml(imported, [
      'From Harbor trials (envgap import harbor --protocol gap; docs/harbor.md). Each trial whose final workspace was',
      "collected is iteration 0 of its agent's replay: installed and run in a clean container, D1/D2/D3 measured, no",
      "repair asked (budget 0). Each task is an imported task, its instruction the prompt recorded.",
    ]),
  );
  say(`import harbor: ${imported.notes.join('; ')}; written to ${opts.out} (projects in ${rel(recordings)}/projects)`);
  if (imported.unconverted.length > 0) say(`import harbor: not converted (${imported.unconverted.length}, also at the top of the file):\n  ${imported.unconverted.join('\n  ')}`);
  return imported;
}
