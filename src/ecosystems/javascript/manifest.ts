import { capMessage, excerpt } from '../../text/excerpt';
import { ManifestError } from '../manifestError';
import { LocatedJson, parseJsonLocated } from './manifestJson';

export interface NpmDependency {
  /** The key as written: npm names are kept, not normalised. */
  name: string;
  /** The version spec as written: a range, tag, `workspace:`, `file:`, git or URL spec, `npm:` alias... */
  spec: string;
}

export interface ParsePackageJsonResult {
  /** D1: runtime dependencies. The others are returned for callers that want them, never counted in D1. */
  dependencies: NpmDependency[];
  devDependencies: NpmDependency[];
  optionalDependencies: NpmDependency[];
  peerDependencies: NpmDependency[];
  warnings: string[];
}

const SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
type Section = (typeof SECTIONS)[number];

/**
 * The dependency sections of a package.json, entries in the order written. An alias
 * (`"lodash4": "npm:lodash@^4"`) counts under its key, the name the code imports. Throws
 * ManifestError on invalid JSON, a top level that is not an object, a section that is not an object,
 * and a spec that is not a string: npm refuses all of them.
 */
export function parsePackageJson(text: string, opts: { fileName: string }): ParsePackageJsonResult {
  const file = opts.fileName;
  const json = parseJsonLocated(text.startsWith('\uFEFF') ? text.slice(1) : text, file);
  const manifest = json.value;
  if (!isObject(manifest)) throw new ManifestError(file, 1, `package.json must be a JSON object, not ${describe(manifest)}`);
  const section = (name: Section) => readSection(manifest, name, json, file);
  return {
    dependencies: section('dependencies'),
    devDependencies: section('devDependencies'),
    optionalDependencies: section('optionalDependencies'),
    peerDependencies: section('peerDependencies'),
    warnings: json.repeatedKeys
      .filter((r) => r.path.length === 1 && (SECTIONS as readonly string[]).includes(r.path[0]))
      .map((r) => capMessage(`${excerpt(file)}:${r.line}: "${excerpt(r.key)}" is repeated in ${r.path[0]}; the last one counts`)),
  };
}

function readSection(manifest: Record<string, unknown>, section: Section, json: LocatedJson, file: string): NpmDependency[] {
  if (!Object.prototype.hasOwnProperty.call(manifest, section)) return [];
  const entries = manifest[section];
  if (!isObject(entries)) {
    throw new ManifestError(file, json.keyLine([section]), `"${section}" must be an object of package names to version specs, not ${describe(entries)}`);
  }
  return Object.entries(entries).map(([name, spec]) => {
    const line = json.keyLine([section, name]) ?? json.keyLine([section]);
    if (name.trim() === '') throw new ManifestError(file, line, `"${section}" has an empty package name`);
    if (typeof spec !== 'string') throw new ManifestError(file, line, `"${section}"."${excerpt(name)}" must be a version string, not ${describe(spec)}`);
    return { name, spec };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
