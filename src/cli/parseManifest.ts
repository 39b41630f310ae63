import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, LANGUAGES } from '../domain/instance';
import type { ManifestDependencyOutput } from '../ecosystems/ecosystem';
import { ECOSYSTEMS } from '../ecosystems/registry';

export type { ManifestDependencyOutput } from '../ecosystems/ecosystem';

/**
 * `envgap parse-manifest FILE`: D1 of one manifest, with includes read relative to the file. Only that
 * manifest: an apt.txt beside it is not read. Warnings go to stderr; a ManifestError is thrown.
 */
export function parseManifestFile(file: string, ecosystem: string): { ecosystem: string; dependencies: ManifestDependencyOutput[] } {
  const language = Language.safeParse(ecosystem);
  if (!language.success) throw new Error(`--ecosystem ${ecosystem}: expected ${LANGUAGES.slice(0, -1).join(', ')} or ${LANGUAGES[LANGUAGES.length - 1]}`);
  const dir = path.dirname(path.resolve(file));
  const text = fs.readFileSync(file, 'utf8');
  const readInclude = (p: string) => {
    const full = path.resolve(dir, p);
    return fs.existsSync(full) && fs.statSync(full).isFile() ? fs.readFileSync(full, 'utf8') : undefined;
  };
  const { dependencies, warnings } = ECOSYSTEMS[language.data].parseManifest(text, { fileName: path.basename(file), readInclude });
  for (const w of warnings) process.stderr.write(`envgap: warning: ${w}\n`);
  return { ecosystem, dependencies };
}
