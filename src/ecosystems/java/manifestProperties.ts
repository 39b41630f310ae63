import { asArray, child, isElement, leafText, XmlElement } from './manifestXml';

/**
 * The properties a POM can interpolate without Maven at hand: its own `<properties>` and the
 * project's and parent's coordinates. Environment, settings and system properties are not known here.
 */
export function pomProperties(project: XmlElement): Map<string, string> {
  const values = new Map<string, string>();
  const text = (element: unknown, name: string) => (isElement(element) ? leafTextOrNull(child(element, name)) : null);
  const parent = child(project, 'parent');
  const coordinates: Record<string, string | null> = {
    groupId: text(project, 'groupId') ?? text(parent, 'groupId'),
    artifactId: text(project, 'artifactId'),
    version: text(project, 'version') ?? text(parent, 'version'),
  };
  for (const [field, value] of Object.entries(coordinates)) {
    if (value === null) continue;
    // `pom.` and the bare names are Maven 2 spellings Maven 3 still accepts.
    for (const prefix of ['project.', 'pom.', '']) values.set(prefix + field, value);
  }
  for (const field of ['groupId', 'artifactId', 'version']) {
    const value = text(parent, field);
    if (value !== null) for (const prefix of ['parent.', 'project.parent.']) values.set(prefix + field, value);
  }
  for (const properties of asArray(child(project, 'properties'))) {
    if (!isElement(properties)) continue;
    for (const name of Object.keys(properties)) {
      const value = leafTextOrNull(lastOf(properties[name]));
      values.set(name, value ?? '');
    }
  }
  return values;
}

/** Longest expansion accepted: properties that double each other could otherwise grow without bound. */
const MAX_EXPANSION = 10_000;

/**
 * Replaces each `${name}` by its value, recursively. A reference that cannot be resolved (unknown,
 * part of a cycle, or expanding beyond MAX_EXPANSION) stays as written and is reported through `unresolved`.
 */
export function interpolate(value: string, properties: Map<string, string>, unresolved: (name: string) => void): string {
  // Each property is expanded once per call, remembering what it could not resolve.
  const memo = new Map<string, { text: string; missing: string[] }>();
  const expand = (text: string, active: string[], missing: string[]): string =>
    text.replace(/\$\{([^${}]+)\}/g, (whole, name: string) => {
      const known = memo.get(name);
      if (known) {
        missing.push(...known.missing);
        return known.text;
      }
      const replacement = properties.get(name);
      if (replacement === undefined || active.includes(name)) {
        missing.push(name);
        return whole;
      }
      const inner: string[] = [];
      let expanded = expand(replacement, [...active, name], inner);
      if (expanded.length > MAX_EXPANSION) {
        expanded = whole;
        inner.splice(0, inner.length, name);
      }
      memo.set(name, { text: expanded, missing: inner });
      missing.push(...inner);
      return expanded;
    });
  const missing: string[] = [];
  const result = expand(value, [], missing);
  for (const name of new Set(missing)) unresolved(name);
  return result.length > MAX_EXPANSION ? value : result;
}

function lastOf(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function leafTextOrNull(value: unknown): string | null {
  try {
    return leafText(value, () => 'value');
  } catch {
    return null;
  }
}
