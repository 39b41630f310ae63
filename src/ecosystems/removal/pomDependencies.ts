/**
 * The `<dependency>` elements of a pom.xml's `<project><dependencies>` as spans of its text, for text
 * transforms that keep everything else byte for byte: no XML library, a scanner of tags that skips
 * comments, CDATA, processing instructions and declarations. The same section D1 is read from
 * (src/ecosystems/java/manifest.ts): not `<dependencyManagement>`, not plugins', not profiles'.
 */
export interface PomDependency {
  /** The artifactId, with `${property}` references resolved from `<project><properties>` where they can be. */
  artifactId: string;
  /** The element from `<dependency` through `</dependency>`. */
  start: number;
  end: number;
  /** Where its `<exclusions>` element's content ends (before `</exclusions>`), where it has one. */
  exclusionsEnd: number | null;
  /** The indentation of its line (for what is inserted into it). */
  indent: string;
}

const TAG = /<(\/)?([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/)?>/y;
const SKIPPED: [string, string][] = [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>'], ['<!', '>']];

interface Open {
  name: string;
  /** Where the open tag starts, and where its content starts. */
  start: number;
  contentStart: number;
}

export function pomDependencies(text: string): PomDependency[] {
  const stack: Open[] = [];
  const properties = new Map<string, string>();
  const found: (Omit<PomDependency, 'artifactId'> & { rawArtifactId: string | null })[] = [];
  let current: (typeof found)[number] | null = null;
  const path = () => stack.map((o) => localName(o.name)).join('/');
  for (let i = text.indexOf('<'); i >= 0 && i < text.length; i = text.indexOf('<', i)) {
    const skipped = SKIPPED.find(([open]) => text.startsWith(open, i));
    if (skipped) {
      const close = text.indexOf(skipped[1], i + skipped[0].length);
      i = close < 0 ? text.length : close + skipped[1].length;
      continue;
    }
    TAG.lastIndex = i;
    const m = TAG.exec(text);
    if (!m) {
      i++;
      continue;
    }
    const [whole, closing, name, , selfClosing] = m;
    const end = i + whole.length;
    if (!closing) {
      stack.push({ name: name!, start: i, contentStart: end });
      if (path() === 'project/dependencies/dependency') {
        current = { start: i, end: -1, exclusionsEnd: null, indent: indentAt(text, i), rawArtifactId: null };
      }
      if (selfClosing) {
        if (current && path() === 'project/dependencies/dependency') current = null;
        stack.pop();
      }
    } else {
      // Close up to the matching open tag (a tolerant scanner: Maven would refuse what does not match).
      let at = stack.length - 1;
      while (at >= 0 && stack[at]!.name !== name) at--;
      if (at >= 0) {
        const open = stack[at]!;
        const closedPath = stack.slice(0, at + 1).map((o) => localName(o.name)).join('/');
        const content = text.slice(open.contentStart, i);
        if (closedPath === 'project/dependencies/dependency' && current) {
          current.end = end;
          found.push(current);
          current = null;
        } else if (closedPath === 'project/dependencies/dependency/artifactId' && current) {
          current.rawArtifactId = content.trim();
        } else if (closedPath === 'project/dependencies/dependency/exclusions' && current) {
          current.exclusionsEnd = i;
        } else if (at === 2 && stack[1] && localName(stack[1].name) === 'properties' && localName(stack[0]!.name) === 'project') {
          properties.set(localName(open.name), content.trim());
        }
        stack.length = at;
      }
    }
    i = end;
  }
  return found
    .filter((d) => d.rawArtifactId !== null && d.rawArtifactId !== '')
    .map(({ rawArtifactId, ...d }) => ({ ...d, artifactId: resolveProperties(rawArtifactId!, properties) }));
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function resolveProperties(value: string, properties: ReadonlyMap<string, string>): string {
  return value.replace(/\$\{([^}]+)\}/g, (ref, name: string) => properties.get(name) ?? ref);
}

function indentAt(text: string, i: number): string {
  const lineStart = text.lastIndexOf('\n', i - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, i))![0];
}
