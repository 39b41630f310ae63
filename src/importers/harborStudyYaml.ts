import { stringify } from 'yaml';
import type { HarborStudyImport } from './harborStudy';

/** The study as YAML, headed by what was converted and, line by line, what was not and why. */
export function harborStudyYaml(imported: HarborStudyImport): string {
  const notes = [
    '# From Harbor tasks and trials (envgap import harbor; docs/harbor.md). Each task is a repository: the files',
    "# its Dockerfile puts in the working directory, its tests/ as the hidden scripts, its verifier (test.sh, passing",
    '# where every reward is at least 1) as the stage its GPUs say (C1, C3 or C4). Each trial is a recorded session',
    '# of a replay agent: its trajectory replayed in one shell, its final workspace written, the report inferred.',
    ...imported.notes.map((n) => `# ${n}.`),
    ...(imported.unconverted.length === 0 ? ['# Not converted: none.'] : ['# Not converted:', ...imported.unconverted.map((u) => `#   - ${u.replace(/\n/g, ' ')}`)]),
  ];
  return `${notes.join('\n')}\n${stringify(imported.study, { lineWidth: 0 })}`;
}
