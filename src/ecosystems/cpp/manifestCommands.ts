export type CppDependencyKind = 'find_package' | 'FetchContent' | 'pkg_check_modules' | 'pkg_search_module';

/** One package a dependency command names, before normalisation. */
export interface NamedPackage {
  rawName: string;
  kind: CppDependencyKind;
  components: string[];
  optionalComponents: string[];
  required: boolean;
}

// find_package keywords; those in TAKES_VALUES are followed by values that are not components.
const FIND_PACKAGE_FLAGS = new Set([
  'EXACT', 'QUIET', 'MODULE', 'CONFIG', 'NO_MODULE', 'GLOBAL', 'NO_POLICY_SCOPE', 'BYPASS_PROVIDER',
  'NO_DEFAULT_PATH', 'NO_PACKAGE_ROOT_PATH', 'NO_CMAKE_PATH', 'NO_CMAKE_ENVIRONMENT_PATH',
  'NO_SYSTEM_ENVIRONMENT_PATH', 'NO_CMAKE_PACKAGE_REGISTRY', 'NO_CMAKE_BUILDS_PATH', 'NO_CMAKE_SYSTEM_PATH',
  'NO_CMAKE_INSTALL_PREFIX', 'NO_CMAKE_SYSTEM_PACKAGE_REGISTRY', 'CMAKE_FIND_ROOT_PATH_BOTH',
  'ONLY_CMAKE_FIND_ROOT_PATH', 'NO_CMAKE_FIND_ROOT_PATH',
]);
const TAKES_VALUES = new Set(['NAMES', 'CONFIGS', 'HINTS', 'PATHS', 'PATH_SUFFIXES', 'REGISTRY_VIEW']);
const VERSION = /^\d+(\.\d+)*(\.\.\.<?\d+(\.\d+)*)?$/;

/**
 * `find_package(<Name> [version] [EXACT] [QUIET] [REQUIRED] [[COMPONENTS] [components...]]
 * [OPTIONAL_COMPONENTS components...] [CONFIG|MODULE] ...)`: names after REQUIRED are components too.
 */
export function findPackage(args: string[]): NamedPackage | null {
  if (args.length === 0) return null;
  const found: NamedPackage = { rawName: args[0], kind: 'find_package', components: [], optionalComponents: [], required: false };
  let collecting: 'components' | 'optional' | 'none' = 'none';
  args.slice(1).forEach((arg, k) => {
    if (k === 0 && VERSION.test(arg)) return;
    if (arg === 'REQUIRED') {
      found.required = true;
      collecting = 'components';
    } else if (arg === 'COMPONENTS') {
      collecting = 'components';
    } else if (arg === 'OPTIONAL_COMPONENTS') {
      collecting = 'optional';
    } else if (FIND_PACKAGE_FLAGS.has(arg) || TAKES_VALUES.has(arg)) {
      collecting = 'none';
    } else if (collecting === 'components') {
      found.components.push(arg);
    } else if (collecting === 'optional') {
      found.optionalComponents.push(arg);
    }
  });
  return found;
}

/** `FetchContent_Declare(<name> ...)`: always fetched, so always required. */
export function fetchContentDeclare(args: string[]): NamedPackage | null {
  if (args.length === 0) return null;
  return { rawName: args[0], kind: 'FetchContent', components: [], optionalComponents: [], required: true };
}

const PKG_FLAGS = new Set(['REQUIRED', 'QUIET', 'NO_CMAKE_PATH', 'NO_CMAKE_ENVIRONMENT_PATH', 'IMPORTED_TARGET', 'GLOBAL']);

/**
 * `pkg_check_modules(<prefix> [REQUIRED] [QUIET] [IMPORTED_TARGET [GLOBAL]] <moduleSpec>...)` and
 * `pkg_search_module` alike: one package per module, version constraints (`zlib>=1.2`) stripped. The
 * prefix names result variables, not a package.
 */
export function pkgConfigModules(kind: 'pkg_check_modules' | 'pkg_search_module', args: string[]): NamedPackage[] {
  const required = args.slice(1).includes('REQUIRED');
  const modules: NamedPackage[] = [];
  let skipVersion = false;
  for (const arg of args.slice(1)) {
    if (PKG_FLAGS.has(arg)) continue;
    // A spec split apart, as in `glib-2.0 >= 2.10`: the operator and the version are no modules.
    if (/^[<>=]+$/.test(arg)) {
      skipVersion = true;
      continue;
    }
    if (skipVersion) {
      skipVersion = false;
      continue;
    }
    const name = arg.replace(/\s*(<=|>=|=|<|>).*$/s, '').trim();
    if (name !== '') modules.push({ rawName: name, kind, components: [], optionalComponents: [], required });
  }
  return modules;
}

/**
 * The normalised form of a C++ library name (docs/record.md): lower case, without a leading `lib` or a
 * trailing `.so` with its version suffix. `libcurl` and `CURL` both become `curl`.
 */
export function normalizeCppName(name: string): string {
  const lower = name.trim().toLowerCase().replace(/\.so(\.[0-9a-z.]*)?$/, '');
  return lower.startsWith('lib') && lower.length > 3 ? lower.slice(3) : lower;
}
