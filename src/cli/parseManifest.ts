import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRequirements } from '../ecosystems/python/requirements';

/** `envgap parse-manifest FILE`: D1 of one manifest, with includes read relative to the file. */
export function parseManifestFile(file: string, ecosystem: string): { ecosystem: string; dependencies: { name: string; specifier: string | null }[] } {
  if (ecosystem !== 'python') throw new Error(`--ecosystem ${ecosystem}: only python is supported so far`);
  const dir = path.dirname(path.resolve(file));
  const text = fs.readFileSync(file, 'utf8');
  const parsed = parseRequirements(text, {
    fileName: path.basename(file),
    readInclude: (p) => {
      const full = path.resolve(dir, p);
      return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : undefined;
    },
  });
  for (const w of parsed.warnings) process.stderr.write(`envgap: warning: ${w}\n`);
  return { ecosystem, dependencies: parsed.dependencies.map((d) => ({ name: d.name, specifier: d.specifier })) };
}
