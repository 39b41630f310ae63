import type { ErrorClass } from '../../domain/instance';

const COMPILATION_FAILURE = /COMPILATION ERROR|Compilation failure/;
const SOURCE_PATH = /\/src\/(?:main|test)\/java\/((?:[\w$]+\/)*)[\w$]+\.java\b/g;
// javac's words for a reference it could not resolve, each naming a package or class.
const MISSING_PACKAGE = /package ([\w.]+) does not exist/g;
const SYMBOL_IN_PACKAGE = /location:\s+package ([\w.]+)/g;
const CLASS_FILE_MISSING = /class file for ([\w.$]+) not found/g;

export function isCompilationFailure(output: string): boolean {
  return COMPILATION_FAILURE.test(output);
}

/**
 * MissingDep when javac could not find a package, a class in a package (an import), or the class
 * file of a supertype, outside the project's packages and the JDK's `java.*` packages; otherwise Build.
 * The project's packages are read off the paths of the sources javac reported on.
 */
export function classifyJavacErrors(output: string): ErrorClass {
  const projectPackages = [...output.matchAll(SOURCE_PATH)].map((m) => m[1].replace(/\/$/, '').replace(/\//g, '.'));
  const referenced = [
    ...[...output.matchAll(MISSING_PACKAGE)].map((m) => m[1]),
    ...[...output.matchAll(SYMBOL_IN_PACKAGE)].map((m) => m[1]),
    ...[...output.matchAll(CLASS_FILE_MISSING)].map((m) => packageOf(m[1])),
  ];
  const external = referenced.some((pkg) => !pkg.startsWith('java.') && !isProjectPackage(pkg, projectPackages));
  return external ? 'MissingDep' : 'Build';
}

/** `com.example.App` -> `com.example`; `App` (the default package) -> ``. */
export function packageOf(className: string): string {
  const dot = className.lastIndexOf('.');
  return dot < 0 ? '' : className.slice(0, dot);
}

/**
 * Whether pkg belongs to the project: it is one of projectPackages or shares its first two segments
 * with one (`com.example.util` with `com.example.app`), one segment when either has only one.
 */
export function isProjectPackage(pkg: string, projectPackages: string[]): boolean {
  const segments = pkg === '' ? [] : pkg.split('.');
  return projectPackages.some((project) => {
    if (project === pkg) return true;
    const projectSegments = project === '' ? [] : project.split('.');
    let common = 0;
    while (common < segments.length && common < projectSegments.length && segments[common] === projectSegments[common]) common++;
    return common >= 1 && common >= Math.min(2, segments.length, projectSegments.length);
  });
}
