import * as fs from 'node:fs';
import * as path from 'node:path';
import { readProjectDir } from '../../src/agents/projectDir';
import { parseCalibrationTruth, type CalibrationTruth } from '../../src/calibration/truth';
import type { ProjectFiles } from '../../src/domain/files';

export const CALIBRATION_DIR = path.join(__dirname, '..', 'fixtures', 'calibration');
const TRUTH_FILE = 'expected.json';

export interface CalibrationProject {
  /** `<language>/<project>`, the folder under test/fixtures/calibration. */
  project: string;
  dir: string;
  truth: CalibrationTruth;
}

/** Every calibration project, in folder order, with its truth checked against its folder's language. */
export function calibrationProjects(): CalibrationProject[] {
  const out: CalibrationProject[] = [];
  for (const language of fs.readdirSync(CALIBRATION_DIR).sort()) {
    for (const name of fs.readdirSync(path.join(CALIBRATION_DIR, language)).sort()) {
      const dir = path.join(CALIBRATION_DIR, language, name);
      const project = `${language}/${name}`;
      const truth = parseCalibrationTruth(fs.readFileSync(path.join(dir, TRUTH_FILE), 'utf8'), project);
      if (truth.language !== language) throw new Error(`calibration ${project}: expected.json says ${truth.language}`);
      out.push({ project, dir, truth });
    }
  }
  return out;
}

/** A project's files as an agent would hand them over: everything in its folder but expected.json. */
export async function calibrationFiles(p: CalibrationProject): Promise<ProjectFiles> {
  const read = await readProjectDir(p.dir, (rel) => rel === TRUTH_FILE);
  if (read.unreadable.length > 0) throw new Error(`calibration ${p.project}: unreadable ${read.unreadable.join(', ')}`);
  return read.files;
}

/** The calibration table as docs/ecosystems.md publishes it: the Markdown table whose header starts `| language | projects |`. */
export function publishedCalibrationTable(): string {
  return publishedTable('| language | projects |');
}

/** The confirmation verdicts as docs/ecosystems.md publishes them: the table whose header starts `| language | project | phantom |`. */
export function publishedConfirmationTable(): string {
  return publishedTable('| language | project | phantom |');
}

function publishedTable(header: string): string {
  const docs = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'ecosystems.md'), 'utf8').split('\n');
  const start = docs.findIndex((line) => line.startsWith(header));
  if (start < 0) return `(no table starting ${header} in docs/ecosystems.md)`;
  const end = docs.findIndex((line, i) => i > start && !line.startsWith('|'));
  return docs.slice(start, end < 0 ? undefined : end).join('\n');
}
