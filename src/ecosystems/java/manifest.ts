import { capMessage, excerpt } from '../../text/excerpt';
import { assertManifestSize, ManifestError } from '../manifestError';
import { interpolate, pomProperties } from './manifestProperties';
import { asArray, child, elementLine, isElement, leafText, parsePomXml } from './manifestXml';

export interface JavaDependency {
  /** The artifactId as written, after property resolution. */
  name: string;
  groupId: string | null;
  version: string | null;
  scope: string | null;
  type: string | null;
  optional: boolean;
}

export interface ParsePomResult {
  dependencies: JavaDependency[];
  warnings: string[];
}

/**
 * D1 of a pom.xml: the `<dependency>` entries of `<project><dependencies>`, every scope included
 * (test-scoped ones too: the paper counts every artifactId of the section; filter on `scope` if needed).
 * Not counted: `<dependencyManagement>` (versions and BOM imports, which declare nothing by
 * themselves), plugin dependencies under `<build>`, and `<profiles>` (active only when the profile is,
 * which a manifest alone cannot tell). Deduplicated by artifactId, the first occurrence winning.
 * Throws ManifestError on XML Maven could not read, on any DTD or entity declaration, and on a
 * dependency without an artifactId.
 */
export function parsePom(xml: string, opts: { fileName: string }): ParsePomResult {
  const file = opts.fileName;
  assertManifestSize(xml, file);
  const text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
  const project = parsePomXml(text, file);
  const properties = pomProperties(project);
  const warnings: string[] = [];
  const dependencies: JavaDependency[] = [];
  const seen = new Set<string>();

  for (const section of asArray(child(project, 'dependencies'))) {
    if (!isElement(section)) continue; // an empty <dependencies/>
    for (const entry of asArray(child(section, 'dependency'))) {
      const line = isElement(entry) ? elementLine(entry, text) : null;
      const where = line ? `${excerpt(file)}:${line}` : excerpt(file);
      const dependency = readDependency(entry, file, line, (value) =>
        interpolate(value, properties, (name) => warnings.push(capMessage(`${where}: \${${excerpt(name)}} cannot be resolved; kept as written`))),
      );
      if (seen.has(dependency.name)) {
        warnings.push(capMessage(`${where}: ${excerpt(dependency.name)} is declared again; the first declaration is kept`));
        continue;
      }
      seen.add(dependency.name);
      dependencies.push(dependency);
    }
  }
  return { dependencies, warnings };
}

function readDependency(entry: unknown, file: string, line: number | null, resolve: (value: string) => string): JavaDependency {
  if (!isElement(entry)) throw new ManifestError(file, line, '<dependency> has no artifactId');
  const field = (name: string): string | null => {
    let value: string | null;
    try {
      value = leafText(child(entry, name), () => `<${name}>`);
    } catch (e) {
      throw new ManifestError(file, line, `<dependency>: ${excerpt((e as Error).message)}`);
    }
    return value === null ? null : resolve(value);
  };
  const name = field('artifactId');
  if (name === null) throw new ManifestError(file, line, '<dependency> has no artifactId');
  return {
    name,
    groupId: field('groupId'),
    version: field('version'),
    scope: field('scope'),
    type: field('type'),
    optional: field('optional')?.toLowerCase() === 'true',
  };
}
