import type { Language } from '../domain/instance';
import { CPP_BUILD_DIR, JAVA_DEPENDENCY_DIR, MAVEN_REPOSITORY, PROJECT_DIR } from './containerPaths';
import { mapCppBuildTrace, mapCppRuntimeTrace } from './cpp/trace';
import type { ArtefactTexts } from './ecosystem';
import { artifactIdOfJar } from './java/trace';
import { parseClassLoadLog } from './java/traceClassLoad';
import { parseStraceChdirs } from './javascript/installScripts';
import { packageOfNodeModulesFile, parsePackageIndex } from './javascript/trace';
import { normalizePosixPath } from './posixPath';
import { parseDistIndex } from './python/distIndex';
import { filesByDistribution } from './python/record';
import { parseStraceOpenedFiles } from './strace';
import { dpkgOwnersBothWays } from './systemLibraries';

/** Per traced package, the files that made it traced: `run` for D3, `build` for D3-build. */
export interface TraceEvidence {
  run: Map<string, string[]>;
  build: Map<string, string[]>;
}

/**
 * The evidence of D3 and D3-build: for each name in `traced` (`tracedBuild`), the files of the
 * final execution's traces that the ecosystem's mapping counted for it, in the order opened. Pure;
 * the same mappings as the layers (src/ecosystems/<language>/ecosystem.ts), applied file by file.
 * C++ build evidence maps each file on its own: a header counts under its Debian package's name,
 * not under a CMake name another file of that package lent it.
 */
export function traceEvidence(language: Language, texts: ArtefactTexts, traced: readonly string[], tracedBuild: readonly string[]): TraceEvidence {
  const opened = (name: string) => parseStraceOpenedFiles(texts[name] ?? '');
  const { run, build } = MAPPERS[language](texts, opened);
  return { run: keep(run, new Set(traced)), build: keep(build, new Set(tracedBuild)) };
}

type FileMapper = (file: string) => string | null;
type Mappers = (texts: ArtefactTexts, opened: (artefact: string) => string[]) => { run: Map<string, string[]>; build: Map<string, string[]> };

function byFile(files: string[], map: FileMapper): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const raw of files) {
    const file = normalizePosixPath(raw);
    const name = map(file);
    if (name === null) continue;
    const list = out.get(name) ?? [];
    if (!list.includes(file)) list.push(file);
    out.set(name, list);
  }
  return out;
}

function keep(evidence: Map<string, string[]>, names: Set<string>): Map<string, string[]> {
  return new Map([...evidence].filter(([name]) => names.has(name)));
}

const MAVEN_ROOTS = [JAVA_DEPENDENCY_DIR, MAVEN_REPOSITORY];

const MAPPERS: Record<Language, Mappers> = {
  python: (t, opened) => {
    const dists = t.distributionIndex ? parseDistIndex(t.distributionIndex, 'distributionIndex') : [];
    return { run: filesByDistribution(opened('runTrace'), dists, { baselinePaths: opened('baselineTrace') }), build: new Map() };
  },
  javascript: (t, opened) => {
    const index = parsePackageIndex(t.packageIndex ?? '');
    const nodeModules = `${PROJECT_DIR}/node_modules/`;
    const run = byFile(opened('runTrace'), (f) => (f.startsWith(nodeModules) ? packageOfNodeModulesFile(f, index) : null));
    // The folders npm ran install scripts in.
    const build = byFile(parseStraceChdirs(t.buildTrace ?? ''), (dir) => (dir.includes('/node_modules/') ? (index.get(dir.replace(/\/+$/, '')) ?? null) : null));
    return { run, build };
  },
  java: (t, opened) => {
    const loaded = t.classLoadLog != null ? parseClassLoadLog(t.classLoadLog) : opened('runTrace');
    const jar = (f: string) => artifactIdOfJar(f, MAVEN_ROOTS);
    return { run: byFile(loaded, jar), build: byFile(opened('buildTrace'), jar) };
  },
  cpp: (t, opened) => {
    const dpkgOwners = dpkgOwnersBothWays(t.dpkgOwners ?? '');
    const run = byFile(opened('runTrace'), (f) => mapCppRuntimeTrace([f], { buildDir: CPP_BUILD_DIR })[0] ?? null);
    const build = byFile([...opened('configureTrace'), ...opened('buildTrace')], (f) => mapCppBuildTrace([f], { buildDir: CPP_BUILD_DIR, dpkgOwners })[0] ?? null);
    return { run, build };
  },
};
