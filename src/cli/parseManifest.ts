import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, LANGUAGES } from '../domain/instance';
import type { ManifestDependencyOutput } from '../ecosystems/ecosystem';
import { excerpt } from '../text/excerpt';
import { ECOSYSTEMS } from '../ecosystems/registry';

export type { ManifestDependencyOutput } from '../ecosystems/ecosystem';

/**
 * `envgap parse-manifest FILE`: D1 of one manifest, with includes read relative to the file and
 * confined to its folder (see confinedReader). Only that manifest: an apt.txt beside it is not read.
 * Warnings go to stderr; a ManifestError is thrown.
 */
export function parseManifestFile(file: string, ecosystem: string): { ecosystem: string; dependencies: ManifestDependencyOutput[] } {
  const language = Language.safeParse(ecosystem);
  if (!language.success) throw new Error(`--ecosystem ${ecosystem}: expected ${LANGUAGES.slice(0, -1).join(', ')} or ${LANGUAGES[LANGUAGES.length - 1]}`);
  const dir = path.dirname(path.resolve(file));
  const text = fs.readFileSync(file, 'utf8');
  const readInclude = confinedReader(dir, (w) => process.stderr.write(`envgap: warning: ${w}\n`));
  const { dependencies, warnings } = ECOSYSTEMS[language.data].parseManifest(text, { fileName: path.basename(file), readInclude });
  for (const w of warnings) process.stderr.write(`envgap: warning: ${w}\n`);
  return { ecosystem, dependencies };
}

/**
 * A readInclude for manifests on disk: reads a regular file by its POSIX path relative to `root`, and
 * nothing outside root. An absolute path, a `..` segment, or a path that resolves out of root through
 * a symbolic link is not read (it reads as absent) and `refused` is told, naming the path only: the
 * parsers already never ask for such paths, this is the second lock.
 */
export function confinedReader(root: string, refused: (message: string) => void): (relPath: string) => string | undefined {
  const realRoot = fs.realpathSync(root);
  const prefix = realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep;
  return (relPath) => {
    const segments = relPath.split('/');
    if (relPath.startsWith('/') || relPath.includes('\\') || relPath.includes('\u0000') || segments.includes('..')) {
      refused(`${excerpt(relPath)}: outside the manifest's folder; not read`);
      return undefined;
    }
    let real: string;
    try {
      real = fs.realpathSync(path.join(realRoot, ...segments));
    } catch {
      return undefined; // absent, or a dangling link
    }
    if (real !== realRoot && !real.startsWith(prefix)) {
      refused(`${excerpt(relPath)}: a symbolic link out of the manifest's folder; not read`);
      return undefined;
    }
    return fs.statSync(real).isFile() ? fs.readFileSync(real, 'utf8') : undefined;
  };
}
