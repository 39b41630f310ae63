import type { Language } from '../domain/instance';
import { ECOSYSTEMS } from '../ecosystems/registry';
import { NPM_VERSION } from '../ecosystems/javascript/ecosystem';

/** A Debian release as the runtime images see it: its name, and the versions of the packages the recipes install. */
export interface DebianRelease {
  /** `Debian 12 (bookworm)` */
  name: string;
  /** Debian package -> the version its suite ships (major[.minor]: what a prompt names); a package the suite lacks is absent. */
  versions: Readonly<Record<string, string>>;
}

/**
 * What each suite's main and security archives held of the recipes' packages, read with apt-cache policy
 * (bookworm: this machine's lists and the built images' own --version; trixie: a private apt list of
 * deb.debian.org trixie main).
 * The recipes name packages, not versions (src/ecosystems/<language>/ecosystem.ts `image.packages`),
 * so the suite decides them; docs/prompts.md lists them in full.
 */
export const DEBIAN_RELEASES: Readonly<Record<string, DebianRelease>> = {
  bookworm: {
    name: 'Debian 12 (bookworm)',
    versions: {
      python3: '3.11', 'openjdk-17-jdk-headless': '17', maven: '3.8', nodejs: '18', npm: '9.2',
      'g++': '12', cmake: '3.25', make: '4.3', 'pkg-config': '1.8', git: '2.39',
    },
  },
  trixie: {
    // No openjdk-17 in trixie: its JDK is 21, so the Java recipe would have to change to use it.
    name: 'Debian 13 (trixie)',
    versions: {
      python3: '3.13', maven: '3.9', nodejs: '20', npm: '9.2',
      'g++': '14', cmake: '3.31', make: '4.4', 'pkg-config': '1.8', git: '2.47',
    },
  },
};

/** How a prompt names the program a package installs. */
export const PROGRAM_NAMES: Readonly<Record<string, string>> = {
  python3: 'Python',
  'openjdk-17-jdk-headless': 'OpenJDK',
  maven: 'Maven',
  nodejs: 'Node.js',
  npm: 'npm',
  'g++': 'G++',
  cmake: 'CMake',
  make: 'GNU Make',
  'pkg-config': 'pkg-config',
  git: 'Git',
};

/** Recipe packages a prompt does not name: parts of a named program, or helpers the harness uses (a new recipe package belongs in one of the two lists). */
export const UNNAMED_PACKAGES: readonly string[] = ['python3-venv', 'ca-certificates-java', 'file'];

/** Versions a recipe pins itself over the suite's (the JavaScript image installs npm NPM_VERSION). */
const PINNED_BY_RECIPE: Readonly<Record<string, string>> = { npm: NPM_VERSION.split('.').slice(0, 2).join('.') };

/** One program of an image, as a prompt names it. */
export interface ImageProgram {
  name: string;
  /** null where the suite is not one envgap knows */
  version: string | null;
}

/** The facts of one language's runtime image that a prompt states. */
export interface RuntimeImageFacts {
  /** `Debian 12 (bookworm)`, or `Debian (<suite>)` for a suite envgap has no facts of */
  os: string;
  programs: ImageProgram[];
}

/**
 * The runtime image of `language` on Debian `suite`, from the recipe (its packages) and the suite's
 * versions. Pure: the table above, no apt and no Docker.
 */
export function runtimeImageFacts(language: Language, suite: string): RuntimeImageFacts {
  const release = DEBIAN_RELEASES[suite];
  const programs = ECOSYSTEMS[language].image.packages
    .filter((p) => PROGRAM_NAMES[p] !== undefined)
    .map((p) => ({ name: PROGRAM_NAMES[p], version: PINNED_BY_RECIPE[p] ?? release?.versions[p] ?? null }));
  return { os: release?.name ?? `Debian (${suite})`, programs };
}
