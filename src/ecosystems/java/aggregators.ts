import { parsePom } from './manifest';

/**
 * A dependency with no class of its own, which exists to bring its dependencies: a Spring Boot
 * starter (`spring-boot-starter-web`: a jar of a manifest and licence files), or a `pom`-type
 * dependency. D3 is read from class loading, so such an artifact is never traced by itself.
 */
export interface Aggregator {
  artifactId: string;
  /** The artifactIds its POM brings to the run: `<dependencies>` less test, provided, system and optional ones. */
  brings: string[];
}

/** Scopes whose dependencies do not reach a consumer's run. */
const NOT_BROUGHT = new Set(['test', 'provided', 'system']);

/**
 * The aggregators of the Java runner's `classlessJars` artefact: a JSON object a line,
 * `{"file": "<jar or pom under target/dependency>", "artifactId": "...", "pom": "<its POM's text>" | null}`,
 * one for every dependency file with no `.class` entry. A POM that cannot be read brings nothing;
 * a line that is not such an object throws.
 */
export function parseAggregators(text: string): Aggregator[] {
  const aggregators: Aggregator[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let entry: { artifactId?: unknown; pom?: unknown } | null;
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      entry = null;
    }
    if (typeof entry !== 'object' || entry === null || typeof entry.artifactId !== 'string') {
      throw new Error(`classlessJars line ${i + 1} is not {"file", "artifactId", "pom"}: ${JSON.stringify(line.slice(0, 200))}`);
    }
    aggregators.push({ artifactId: entry.artifactId, brings: typeof entry.pom === 'string' ? broughtBy(entry.pom) : [] });
  });
  return aggregators;
}

function broughtBy(pom: string): string[] {
  try {
    return parsePom(pom, { fileName: 'pom' })
      .dependencies.filter((d) => !d.optional && !NOT_BROUGHT.has(d.scope ?? 'compile'))
      .map((d) => d.name);
  } catch {
    return [];
  }
}

/**
 * The aggregators in `installed` that count as traced because something they bring was traced,
 * directly or through another aggregator (`spring-boot-starter-web` brings `spring-boot-starter`,
 * which brings `spring-boot`). Sorted; none already in `traced`.
 */
export function tracedThroughAggregators(aggregators: Aggregator[], traced: readonly string[], installed: readonly string[]): string[] {
  const onClasspath = new Set(installed);
  const reached = new Set(traced);
  const found = new Set<string>();
  const candidates = aggregators.filter((a) => onClasspath.has(a.artifactId) && !reached.has(a.artifactId));
  let grew = true;
  while (grew) {
    grew = false;
    for (const a of candidates) {
      if (found.has(a.artifactId) || !a.brings.some((name) => reached.has(name))) continue;
      found.add(a.artifactId);
      reached.add(a.artifactId);
      grew = true;
    }
  }
  return [...found].sort();
}
