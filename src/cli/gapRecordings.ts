import * as fs from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { REPLAY_METADATA_FILE } from '../agents/replay';
import type { GapReplayImport } from '../importers/gapReplayStudy';

/** Writes each project as a replay iteration: <recordings>/projects/<agent>/<language>/<task>/<trial>/0/ (src/agents/replay.ts). */
export function writeGapRecordings(recordings: string, imported: GapReplayImport): void {
  const root = path.join(recordings, 'projects');
  for (const r of imported.recordings) {
    const at = path.join(root, r.agent, r.language, r.task, String(r.trial), '0');
    for (const f of r.files) {
      const to = path.resolve(at, f.rel);
      if (f.rel.startsWith('/') || !to.startsWith(at + path.sep)) throw new Error(`a project file's path leaves its folder: ${f.rel}`);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.writeFileSync(to, f.content);
    }
    fs.mkdirSync(at, { recursive: true });
    const meta = Object.fromEntries(Object.entries(r.meta).filter(([, v]) => typeof v === 'number' && v >= 0));
    if (Object.keys(meta).length > 0) fs.writeFileSync(path.join(at, REPLAY_METADATA_FILE), JSON.stringify(meta) + '\n');
    // Beside the iteration, not in it: the replay reads only <trial>/<n>/.
    if (r.record) fs.writeFileSync(path.join(path.dirname(at), r.record.file), JSON.stringify(r.record.data, null, 2) + '\n');
  }
}

/** The gap study as YAML, headed by what it is and, line by line, what was not converted and why. */
export function gapStudyYaml(imported: GapReplayImport, header: string[]): string {
  const notes = [
    ...header.map((h) => `# ${h}`),
    ...imported.notes.map((n) => `# ${n}.`),
    ...(imported.unconverted.length === 0 ? ['# Not converted: none.'] : ['# Not converted:', ...imported.unconverted.map((u) => `#   - ${u.replace(/\n/g, ' ')}`)]),
  ];
  return `${notes.join('\n')}\n${stringify(imported.study, { lineWidth: 0 })}`;
}
