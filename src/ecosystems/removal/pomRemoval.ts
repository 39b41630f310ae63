import type { ProjectFiles } from '../../domain/files';
import { pomDependencies, type PomDependency } from './pomDependencies';
import { removalOf, type Removal } from './removal';

const MANIFEST = 'pom.xml';

/**
 * pom.xml without the `<dependency>` elements of the given artifactIds (as D1 has them), each with
 * its line where it stood alone on it; nothing else changes.
 */
export function withoutMavenDependencies(files: ProjectFiles, names: readonly string[]): Removal {
  const text = files[MANIFEST];
  if (typeof text !== 'string') return removalOf(files, {}, names, []);
  const wanted = new Set(names);
  const dropped = pomDependencies(text).filter((d) => wanted.has(d.artifactId));
  if (dropped.length === 0) return removalOf(files, {}, names, []);
  let out = text;
  for (const d of [...dropped].reverse()) {
    const [from, to] = wholeLines(out, d.start, d.end);
    out = out.slice(0, from) + out.slice(to);
  }
  return removalOf(files, { [MANIFEST]: out }, names, dropped.map((d) => d.artifactId));
}

/**
 * pom.xml where no dependency brings the given artifactIds: every `<dependency>` still declared gets an
 * `<exclusion>` of each (groupId `*`: Maven 3.2.1 and later match any group), in its `<exclusions>`
 * where it has one; those declared themselves are taken out first. Maven resolves the rest as before,
 * so the installed set loses exactly these (and what only they brought). A name is "removed" when the
 * pom has a dependency to exclude it from or declared it.
 */
export function withoutMavenArtifacts(files: ProjectFiles, names: readonly string[]): Removal {
  const declared = withoutMavenDependencies(files, names);
  const text = declared.files[MANIFEST];
  if (typeof text !== 'string' || names.length === 0) return declared;
  const kept = pomDependencies(text);
  if (kept.length === 0) return declared;
  let out = text;
  for (const d of [...kept].reverse()) out = withExclusions(out, d, names);
  return removalOf(files, { [MANIFEST]: out }, names, names);
}

function withExclusions(text: string, d: PomDependency, names: readonly string[]): string {
  const i = d.indent;
  const exclusion = (n: string, at: string) => `${at}<exclusion>\n${at}  <groupId>*</groupId>\n${at}  <artifactId>${escapeXml(n)}</artifactId>\n${at}</exclusion>\n`;
  if (d.exclusionsEnd !== null) {
    const at = text.slice(0, d.exclusionsEnd);
    const lineStart = at.lastIndexOf('\n') + 1;
    const closingOnItsOwnLine = /^[ \t]*$/.test(at.slice(lineStart));
    const insertAt = closingOnItsOwnLine ? lineStart : d.exclusionsEnd;
    const added = names.map((n) => exclusion(n, `${i}    `)).join('');
    return text.slice(0, insertAt) + (closingOnItsOwnLine ? added : `\n${added}${i}  `) + text.slice(insertAt);
  }
  const close = text.lastIndexOf('</', d.end);
  const block = `  <exclusions>\n${names.map((n) => exclusion(n, `${i}    `)).join('')}${i}  </exclusions>\n${i}`;
  return text.slice(0, close) + block + text.slice(close);
}

/** [from, to) widened to whole lines where the span stands alone on them (only blanks around it). */
function wholeLines(text: string, start: number, end: number): [number, number] {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nl = text.indexOf('\n', end);
  const lineEnd = nl < 0 ? text.length : nl + 1;
  const alone = /^[ \t]*$/.test(text.slice(lineStart, start)) && /^[ \t]*\r?\n?$/.test(text.slice(end, lineEnd));
  return alone ? [lineStart, lineEnd] : [start, end];
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
