import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseCMakeLists } from '../ecosystems/cpp/manifest';
import { parsePom } from '../ecosystems/java/manifest';
import { parsePackageJson } from '../ecosystems/javascript/manifest';
import { parseRequirements } from '../ecosystems/python/requirements';

export type ManifestDependencyOutput = { name: string } & Record<string, unknown>;

/**
 * `envgap parse-manifest FILE`: D1 of one manifest, with includes read relative to the file. Only that
 * manifest: an apt.txt beside it is not read. Warnings go to stderr; a ManifestError is thrown.
 */
export function parseManifestFile(file: string, ecosystem: string): { ecosystem: string; dependencies: ManifestDependencyOutput[] } {
  const dir = path.dirname(path.resolve(file));
  const text = fs.readFileSync(file, 'utf8');
  const fileName = path.basename(file);
  const readInclude = (p: string) => {
    const full = path.resolve(dir, p);
    return fs.existsSync(full) && fs.statSync(full).isFile() ? fs.readFileSync(full, 'utf8') : undefined;
  };
  const { dependencies, warnings } = parse(ecosystem, text, fileName, readInclude);
  for (const w of warnings) process.stderr.write(`envgap: warning: ${w}\n`);
  return { ecosystem, dependencies };
}

function parse(
  ecosystem: string,
  text: string,
  fileName: string,
  readInclude: (p: string) => string | undefined,
): { dependencies: ManifestDependencyOutput[]; warnings: string[] } {
  switch (ecosystem) {
    case 'python': {
      const parsed = parseRequirements(text, { fileName, readInclude });
      return { warnings: parsed.warnings, dependencies: parsed.dependencies.map((d) => ({ name: d.name, specifier: d.specifier })) };
    }
    case 'java': {
      const parsed = parsePom(text, { fileName });
      return {
        warnings: parsed.warnings,
        dependencies: parsed.dependencies.map((d) => ({ name: d.name, groupId: d.groupId, version: d.version, scope: d.scope, optional: d.optional })),
      };
    }
    case 'javascript': {
      const parsed = parsePackageJson(text, { fileName });
      return { warnings: parsed.warnings, dependencies: parsed.dependencies.map((d) => ({ name: d.name, spec: d.spec })) };
    }
    case 'cpp': {
      const parsed = parseCMakeLists(text, { fileName, readInclude });
      return {
        warnings: parsed.warnings,
        dependencies: parsed.dependencies.map((d) => ({ name: d.name, rawName: d.rawName, kind: d.kind, components: d.components, required: d.required })),
      };
    }
    default:
      throw new Error(`--ecosystem ${ecosystem}: expected python, java, javascript or cpp`);
  }
}
