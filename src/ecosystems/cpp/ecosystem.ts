import type { ProjectFiles } from '../../domain/files';
import { CPP_BUILD_DIR } from '../containerPaths';
import { dependencyManifest } from '../dependencyManifest';
import type { Ecosystem } from '../ecosystem';
import { layer } from '../ecosystem';
import { declaredOf } from '../projectManifest';
import { dpkgOwnersBothWays, isBaseRuntimeLibrary, libraryNameOfSharedObject } from '../systemLibraries';
import { classifyCppFailure, type CppStep } from './classify';
import { parseCMakeLists } from './manifest';
import { parseCMakeConfigureLog } from './resolve';
import { mapCppBuildTrace, mapCppRuntimeTrace } from './trace';
import { CPP_STATIC } from './staticBaseline';

/** What the C++ runner stores (src/activities/runners/cpp.ts). */
export const CPP_ARTEFACTS = ['configureLog', 'configureTrace', 'buildTrace', 'runTrace', 'dpkgOwners'] as const;
export type CppArtefact = (typeof CPP_ARTEFACTS)[number];

/** C++: CMakeLists.txt, CMake and make, D3 from the shared objects loaded, with dpkg's account of system files. */
export const CPP: Ecosystem<'cpp', CppArtefact, CppStep> = {
  language: 'cpp',
  displayName: 'C++',
  ...dependencyManifest({ file: 'CMakeLists.txt', purlType: 'generic', parse: parseCMakeLists, fields: ['rawName', 'kind', 'components', 'required'] }),
  artefacts: CPP_ARTEFACTS,
  installed: {
    // D2 starts from the final D1: CMake names are normalised as library names; Debian packages from apt.txt keep theirs.
    ...layer(['configureLog'], (t, files: ProjectFiles) => {
      const declared = declaredOf(CPP, files);
      return [...new Set([...parseCMakeConfigureLog(t.need('configureLog'), declared.fromManifest), ...declared.fromApt])].sort();
    }),
    readsProject: true,
  },
  traced: layer(['runTrace'], (t) => {
    t.need('runTrace');
    return mapCppRuntimeTrace(t.opened('runTrace'), { buildDir: CPP_BUILD_DIR });
  }),
  // The Debian packages owning the shared objects the program loaded (base C/C++ runtime left out); null where dpkg was not asked.
  tracedDebianPackages: layer(['runTrace', 'dpkgOwners'], (t) => {
    const dpkgOwners = t.get('dpkgOwners');
    if (dpkgOwners == null) return null;
    const owners = dpkgOwnersBothWays(dpkgOwners);
    const packages = new Set<string>();
    for (const file of t.opened('runTrace')) {
      const lib = libraryNameOfSharedObject(file);
      const owner = owners.get(file);
      if (lib && !isBaseRuntimeLibrary(lib) && owner && !file.startsWith(CPP_BUILD_DIR)) packages.add(owner);
    }
    return [...packages].sort();
  }),
  // Headers, CMake package files, pkg-config files, FetchContent sources and libraries linked.
  tracedBuild: layer(['configureTrace', 'buildTrace', 'dpkgOwners'], (t) =>
    mapCppBuildTrace(t.opened('configureTrace', 'buildTrace'), { buildDir: CPP_BUILD_DIR, dpkgOwners: dpkgOwnersBothWays(t.get('dpkgOwners') ?? '') }),
  ),
  classifyFailure: classifyCppFailure,
  image: { packages: ['g++', 'cmake', 'make', 'pkg-config', 'git', 'file'], setup: '' },
  packageManager: {
    caches: [],
    // CMake's FetchContent clones with git.
    caBundleEnv: ['GIT_SSL_CAINFO'],
    mirror: () => ({ env: [], binds: [], files: {} }),
  },
  staticBaseline: CPP_STATIC,
};
