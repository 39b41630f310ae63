import { capMessage, excerpt } from '../../text/excerpt';
import { assertManifestSize, ManifestError } from '../manifestError';
import {
  CppDependencyKind,
  fetchContentDeclare,
  findPackage,
  NamedPackage,
  normalizeCppName,
  pkgConfigModules,
} from './manifestCommands';
import { CMakeInterpreter } from './manifestInterpreter';

export { normalizeCppName };
export type { CppDependencyKind };

export interface CppDependency {
  /** Normalised: lower case, no leading `lib`, no `.so*` suffix. */
  name: string;
  rawName: string;
  kind: CppDependencyKind;
  /** Components asked for (after COMPONENTS, or after REQUIRED); merged over repeated declarations. */
  components: string[];
  /** Components after OPTIONAL_COMPONENTS. */
  optionalComponents: string[];
  required: boolean;
  /** Where the package is first named. */
  source: { file: string; line: number };
}

export interface ParseCMakeListsOptions {
  /** Name of the file `text` came from; includes and subdirectories are resolved against its directory. */
  fileName: string;
  /** Reads a file by its normalised POSIX path, relative to the same root as fileName; undefined when absent. */
  readInclude?: (path: string) => string | undefined;
}

export interface ParseCMakeListsResult {
  dependencies: CppDependency[];
  warnings: string[];
}

/**
 * D1 of a CMakeLists.txt: every package named by `find_package`, `FetchContent_Declare`,
 * `pkg_check_modules` and `pkg_search_module`, following `include()` and `add_subdirectory()`.
 * Everything named is kept, whatever the condition around it (tests, options) and whatever it is:
 * `Threads`, `PkgConfig` or `OpenMP` are build-system facilities rather than libraries, and a caller
 * that wants only libraries filters them out. Deduplicated by normalised name: the first declaration
 * keeps its kind, name and place; later ones add their components and can make it required.
 * Throws ManifestError where CMake would fail to parse a file or would reject a dependency command.
 */
export function parseCMakeLists(text: string, opts: ParseCMakeListsOptions): ParseCMakeListsResult {
  assertManifestSize(text, opts.fileName);
  const dependencies: CppDependency[] = [];
  const byName = new Map<string, CppDependency>();
  const warnings: string[] = [];
  const add = (named: NamedPackage, source: CppDependency['source']) => {
    if (/\$(\{|ENV\{|CACHE\{|<)/.test(named.rawName)) {
      warnings.push(capMessage(`${excerpt(source.file)}:${source.line}: package name ${excerpt(named.rawName)} has a variable that cannot be resolved; kept as written`));
    }
    const name = normalizeCppName(named.rawName);
    const known = byName.get(name);
    if (known) {
      known.components = union(known.components, named.components);
      known.optionalComponents = union(known.optionalComponents, named.optionalComponents);
      known.required ||= named.required;
      return;
    }
    const dependency: CppDependency = { name, ...named, source };
    byName.set(name, dependency);
    dependencies.push(dependency);
  };

  new CMakeInterpreter({
    readInclude: opts.readInclude ?? (() => undefined),
    warn: (message) => warnings.push(capMessage(message)),
    onCommand: (command, args, source) => {
      const named = dependencyCommand(command, args);
      if (named === undefined) return;
      if (named.length === 0) throw new ManifestError(source.file, source.line, `${command}() names no package`);
      for (const n of named) add(n, source);
    },
  }).run(text, opts.fileName);
  return { dependencies, warnings };
}

/** The packages a command names: undefined for a command that names none by nature. */
function dependencyCommand(command: string, args: string[]): NamedPackage[] | undefined {
  switch (command) {
    case 'find_package':
      return optional(findPackage(args));
    case 'fetchcontent_declare':
      return optional(fetchContentDeclare(args));
    case 'pkg_check_modules':
    case 'pkg_search_module':
      return pkgConfigModules(command, args);
    default:
      return undefined;
  }
}

function optional(named: NamedPackage | null): NamedPackage[] {
  return named ? [named] : [];
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}
