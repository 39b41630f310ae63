import type { ProjectFiles } from '../../domain/files';
import { ManifestError } from '../manifestError';
import { normalizePythonName } from '../python/pep503';
import { logicalLines } from '../python/requirementLines';
import { parseRequirements } from '../python/requirements';
import { linesWithEnds, removalOf, type FileRemoval, type Removal } from './removal';

const MANIFEST = 'requirements.txt';

// As pip (and requirementLines.ts): a `#` starts a comment at the line start or after whitespace.
const COMMENT = /(^|\s)#/;

/**
 * requirements.txt without the requirements of the given names (PEP 503 normalised, as D1 has them):
 * every line that names one, continuations included, in requirements.txt and in the files it
 * includes with `-r`, is taken out; nothing else changes. A name no line requires is not found.
 */
export function withoutRequirements(files: ProjectFiles, names: readonly string[]): Removal {
  const wanted = new Set(names.map(normalizePythonName));
  const changed: ProjectFiles = {};
  const removed = new Set<string>();
  for (const file of requirementFiles(files)) {
    const r = withoutRequirementLines(files[file]!, file, wanted);
    if (r.removed.length === 0) continue;
    changed[file] = r.text;
    for (const n of r.removed) removed.add(n);
  }
  return removalOf(files, changed, names, names.filter((n) => removed.has(normalizePythonName(n))));
}

/** requirements.txt and every file that gave it a requirement through `-r`, as the parser follows them. */
function requirementFiles(files: ProjectFiles): string[] {
  if (typeof files[MANIFEST] !== 'string') return [];
  try {
    const parsed = parseRequirements(files[MANIFEST], { fileName: MANIFEST, readInclude: (p) => (Object.hasOwn(files, p) ? files[p] : undefined) });
    return [...new Set([MANIFEST, ...parsed.dependencies.map((d) => d.source.file)])].filter((f) => typeof files[f] === 'string');
  } catch (err) {
    if (err instanceof ManifestError) return [MANIFEST];
    throw err;
  }
}

/** One requirements file without the lines that require a wanted name. */
export function withoutRequirementLines(text: string, file: string, wanted: ReadonlySet<string>): FileRemoval {
  const physical = linesWithEnds(text);
  const drop = new Set<number>();
  const removed: string[] = [];
  for (const logical of logicalLines(text)) {
    const name = requirementName(logical.text, file);
    if (name === null || !wanted.has(name)) continue;
    removed.push(name);
    // The logical line's physical lines: from its start through its continuations.
    let i = logical.line - 1;
    drop.add(i);
    while (i < physical.length - 1 && !COMMENT.test(physical[i]!) && physical[i]!.trimEnd().endsWith('\\')) drop.add(++i);
  }
  return { text: physical.filter((_, i) => !drop.has(i)).join(''), removed };
}

/** The normalised name a logical line requires, or null (an option line, a line pip would refuse). */
function requirementName(line: string, file: string): string | null {
  try {
    const parsed = parseRequirements(line, { fileName: file, readInclude: () => '' });
    return parsed.dependencies.length === 1 ? parsed.dependencies[0]!.name : null;
  } catch (err) {
    if (err instanceof ManifestError) return null;
    throw err;
  }
}
