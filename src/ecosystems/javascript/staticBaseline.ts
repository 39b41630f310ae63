import type { ProjectFiles } from '../../domain/files';
import type { StaticBaseline } from '../ecosystem';
import { NODE_BUILTIN_MODULES } from './nodeBuiltins';

const BUILTINS = new Set(NODE_BUILTIN_MODULES);

/** The npm package a specifier names: `@scope/name/sub` -> `@scope/name`, `lodash/fp` -> `lodash`; null for builtins and relative paths. */
export function packageOfSpecifier(specifier: string): string | null {
  if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/') || specifier === '') return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  if (BUILTINS.has(name) || BUILTINS.has(specifier)) return null;
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name) || (name.startsWith('@') && parts.length < 2)) return null;
  return name;
}

/** The specifiers of `require('x')`, `import ... from 'x'`, `import 'x'` and `import('x')`. */
export function javascriptSpecifiers(source: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
    /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
    /\bimport\s+(?:[\w$*{},\s]+\s+from\s+)?(['"])([^'"\n]+)\1/g,
    /\bexport\s+[\w$*{},\s]+\s+from\s+(['"])([^'"\n]+)\1/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) found.add(m[2]!);
  return [...found].sort();
}

const SOURCE = /\.(c|m)?(j|t)sx?$/;

/** package.json for a project: the imported packages at "*", keeping the source package.json's other fields. */
export function inferJavascriptManifest(files: Record<string, string>, sourceManifest: string | undefined): Record<string, string> {
  const packages = new Set<string>();
  for (const [p, content] of Object.entries(files)) {
    if (!SOURCE.test(p) || p.includes('node_modules/')) continue;
    for (const s of javascriptSpecifiers(content)) {
      const name = packageOfSpecifier(s);
      if (name) packages.add(name);
    }
  }
  return { 'package.json': javascriptManifest(sourceManifest, [...packages]) };
}

/** Keeps name, type, main, scripts of the source (how to run it is not a dependency) and writes dependencies afresh. */
export function javascriptManifest(sourceManifest: string | undefined, packages: readonly string[]): string {
  let base: Record<string, unknown> = {};
  try {
    const parsed = sourceManifest ? JSON.parse(sourceManifest) : {};
    if (parsed && typeof parsed === 'object') base = parsed as Record<string, unknown>;
  } catch {
    base = {};
  }
  const kept = Object.fromEntries(['name', 'version', 'type', 'main', 'bin', 'scripts'].filter((k) => k in base).map((k) => [k, base[k]]));
  const dependencies = Object.fromEntries([...new Set(packages)].sort().map((p) => [p, '*']));
  return `${JSON.stringify({ name: 'static-baseline', version: '1.0.0', ...kept, dependencies }, null, 2)}\n`;
}

/** The package a Node error says is missing (`Cannot find module 'x'`, `Cannot find package 'x'`). */
export function javascriptMissingFromError(tail: string): string | null {
  const m = /Cannot find (?:module|package) ['"]([^'"]+)['"]/.exec(tail);
  return m ? packageOfSpecifier(m[1]!) : null;
}

function dependenciesOf(manifest: string | undefined): string[] {
  try {
    const parsed = manifest ? (JSON.parse(manifest) as Record<string, unknown>) : null;
    return Object.keys((parsed?.dependencies as Record<string, string> | undefined) ?? {});
  } catch {
    return [];
  }
}

/** The static baseline for JavaScript: package.json from the imports (the source's run fields kept), and the package a Node error names. */
export const JAVASCRIPT_STATIC: StaticBaseline = {
  manifestFiles: ['package.json', 'package-lock.json', 'apt.txt'],
  infer: (code, source) => inferJavascriptManifest(code, source['package.json']),
  repair(previous: ProjectFiles, errorTail: string) {
    const name = javascriptMissingFromError(errorTail);
    const pkg = previous['package.json'];
    const deps = dependenciesOf(pkg);
    if (!name || deps.includes(name)) return null;
    return { ...previous, 'package.json': javascriptManifest(pkg, [...deps, name]) };
  },
};
