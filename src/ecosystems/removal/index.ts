import type { TrialRemoval } from '../../domain/confirmation/types';
import type { ProjectFiles } from '../../domain/files';
import type { Language } from '../../domain/instance';
import { withoutAptPackages } from './aptRemoval';
import { withoutCmakePackages } from './cmakeRemoval';
import { withoutNpmDependencies } from './packageJsonRemoval';
import { withoutMavenArtifacts, withoutMavenDependencies } from './pomRemoval';
import { removalOf, type Removal } from './removal';
import { withoutRequirements } from './requirementsRemoval';

export type { Removal } from './removal';

const MANIFEST_REMOVAL: Record<Language, (files: ProjectFiles, names: readonly string[]) => Removal> = {
  python: withoutRequirements,
  java: withoutMavenDependencies,
  javascript: withoutNpmDependencies,
  cpp: withoutCmakePackages,
};

/**
 * The project without the given declared names (D1's, normalised as there): out of the language's
 * manifest and out of apt.txt, wherever each is. A name found in neither is `notFound`.
 */
export function withoutDeclared(language: Language, files: ProjectFiles, names: readonly string[]): Removal {
  const manifest = MANIFEST_REMOVAL[language](files, names);
  const apt = withoutAptPackages(manifest.files, names);
  return removalOf(files, apt.files, names, [...manifest.removed, ...apt.removed]);
}

/**
 * Why an ecosystem's installed set cannot lose one package that only others bring (bloat: installed,
 * not traced), where it cannot. Only Maven can exclude a transitive artifact from what a dependency
 * brings (`<exclusions>`).
 */
export const BLOAT_UNSUPPORTED: Partial<Record<Language, string>> = {
  python:
    'pip cannot install a requirements file less one package that another requires: a requirements file has no per-requirement --no-deps and a constraint cannot forbid a package; installing everything with --no-deps would be another install than the one measured',
  javascript:
    "npm's overrides replace a transitive package's version or source but cannot remove it; substituting an empty package would test another project",
  cpp: 'D2 is D1 for C++ (the configure log names what the manifest asked for): there is no installed-only set to remove from',
};

/** The project whose install no longer brings the given installed names (D2's), where the ecosystem allows it; else why not. */
export function withoutInstalled(language: Language, files: ProjectFiles, names: readonly string[]): Removal | { unsupported: string } {
  const why = BLOAT_UNSUPPORTED[language];
  if (why !== undefined) return { unsupported: why };
  return withoutMavenArtifacts(files, names);
}

/** The project with a confirmation trial's names taken out (declared ones from the manifest and apt.txt, installed ones excluded), and the names not found. */
export function projectWithout(language: Language, files: ProjectFiles, remove: TrialRemoval): { files: ProjectFiles; notFound: string[] } {
  const declared = withoutDeclared(language, files, remove.declared);
  if (remove.installed.length === 0) return declared;
  const installed = withoutInstalled(language, declared.files, remove.installed);
  if ('unsupported' in installed) return { files: declared.files, notFound: [...declared.notFound, ...remove.installed] };
  return { files: installed.files, notFound: [...declared.notFound, ...installed.notFound] };
}
