import type { AnyEcosystem, ManifestDependencyOutput, ManifestOptions } from './ecosystem';
import type { PurlType } from './purlType';

/** What a language's manifest parser returns: its dependencies, each with a name, and its warnings. */
interface ParsedDependencies<D extends { name: string }> {
  dependencies: readonly D[];
  warnings: string[];
}

/** How a language declares its dependencies, as its parts of an ecosystem record. */
export interface DependencyManifest<D extends { name: string }> {
  /** The manifest file, at the top of a project. */
  file: string;
  /** The package URL type its dependencies have in an SBOM. */
  purlType: PurlType;
  /** The language's own parser of that file. */
  parse: (text: string, options: ManifestOptions) => ParsedDependencies<D>;
  /** The fields `envgap parse-manifest` prints of each dependency after its name, in that order. */
  fields: readonly Exclude<keyof D & string, 'name'>[];
}

/**
 * The record's `purlType`, `manifestFile` and `parseManifest`: D1 is the parser's, each dependency
 * cut down to its name and the fields named, with the parser's warnings.
 */
export function dependencyManifest<D extends { name: string }>(m: DependencyManifest<D>): Pick<AnyEcosystem, 'purlType' | 'manifestFile' | 'parseManifest'> {
  return {
    purlType: m.purlType,
    manifestFile: m.file,
    parseManifest(text, options) {
      const parsed = m.parse(text, options);
      return { warnings: parsed.warnings, dependencies: parsed.dependencies.map((d) => outputOf(d, m.fields)) };
    },
  };
}

function outputOf<D extends { name: string }>(dependency: D, fields: readonly (keyof D & string)[]): ManifestDependencyOutput {
  return { name: dependency.name, ...Object.fromEntries(fields.map((f) => [f, dependency[f]])) };
}
