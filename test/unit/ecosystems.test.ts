import type { Sandbox } from '../../src/sandbox';
import type { ContainerLimits } from '../../src/domain/study';
import { RUNNERS, TYPED_RUNNERS } from '../../src/activities/runners';
import type { ProjectFiles } from '../../src/domain/files';
import { LANGUAGES, type Language } from '../../src/domain/instance';
import { DEFAULT_LIMITS } from '../../src/domain/study';
import { artefactsFor, extractLayer, MissingArtefactError, type AnyEcosystem, type ArtefactTexts } from '../../src/ecosystems/ecosystem';
import { MANIFEST_FILE } from '../../src/ecosystems/manifestFiles';
import { ECOSYSTEMS } from '../../src/ecosystems/registry';
import type { ExecResult } from '../../src/infra/exec';
import { RUNTIME_RECIPES } from '../../src/infra/recipes';

const eco = (language: Language): AnyEcosystem => ECOSYSTEMS[language];
const layers = (e: AnyEcosystem) => [e.installed, e.traced, e.tracedDebianPackages, e.tracedBuild, e.installedApart, e.tracedAggregated, e.tracedBase].filter((l) => l != null);

describe('the ecosystem registry', () => {
  it('has one record per language, under its own name, with a runner, a manifest file and an image', () => {
    expect(Object.keys(ECOSYSTEMS).sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(RUNNERS).sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(RUNTIME_RECIPES).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      expect(eco(language).language).toBe(language);
      expect(MANIFEST_FILE[language]).toBe(eco(language).manifestFile);
      expect(RUNNERS[language]).toBe(TYPED_RUNNERS[language]);
      expect(RUNTIME_RECIPES[language]('debian:bookworm')).toContain(eco(language).image.packages.join(' '));
    }
  });

  it.each(LANGUAGES)('%s: its layers read its artefacts, every one of them, and nothing else', (language) => {
    const e = eco(language);
    expect(new Set(e.artefacts).size).toBe(e.artefacts.length);
    const read = new Set(layers(e).flatMap((l) => l.reads));
    expect([...read].sort()).toEqual([...e.artefacts].sort());
  });
});

describe('the artefacts a layer is given', () => {
  it('are only those it declares', () => {
    const t = artefactsFor(['runTrace'] as string[], { runTrace: 'x', npmLs: '{}' });
    expect(t.get('runTrace')).toBe('x');
    expect(() => t.get('npmLs')).toThrow(/does not declare/);
  });

  it('say which one was not recorded', () => {
    expect(() => artefactsFor(['runTrace'], { runTrace: null }).need('runTrace')).toThrow(MissingArtefactError);
  });
});

// Small but real artefacts of one successful execution per language: every layer runs over them,
// each given only what it declares, so a layer reading an undeclared name fails here.
const open = (pid: number, path: string) => `${pid}  openat(AT_FDCWD, "${path}", O_RDONLY|O_CLOEXEC) = 3`;
const SITE = '/opt/venv/lib/python3.11/site-packages';
const GSON = 'com/google/code/gson/gson/2.10.1/gson-2.10.1.jar';
const RECORDED: Record<Language, { files: ProjectFiles; artefacts: ArtefactTexts; expected: Record<'installed' | 'traced' | 'tracedDebianPackages' | 'tracedBuild', string[] | null> }> = {
  python: {
    files: { 'requirements.txt': 'six\n' },
    artefacts: {
      installedBefore: '[{"name":"pip","version":"23.0.1"}]',
      installedAfter: '[{"name":"pip","version":"23.0.1"},{"name":"six","version":"1.16.0"}]',
      distributionIndex: JSON.stringify([{ name: 'six', version: '1.16.0', location: SITE, files: ['six.py'] }]),
      baselineTrace: open(1, '/usr/lib/python3.11/os.py'),
      runTrace: [open(2, '/usr/lib/python3.11/os.py'), open(2, `${SITE}/six.py`)].join('\n'),
    },
    expected: { installed: ['six'], traced: ['six'], tracedDebianPackages: null, tracedBuild: null },
  },
  java: {
    files: {},
    artefacts: {
      buildTrace: open(3, `/root/.m2/repository/${GSON}`),
      dependencyList: '[INFO] The following files have been resolved:\n[INFO]    com.google.code.gson:gson:jar:2.10.1:compile -- module com.google.gson\n',
      runTrace: open(4, `/work/target/dependency/${GSON}`),
      classLoadLog: `[0.101s][info][class,load] com.google.gson.Gson source: file:/work/target/dependency/${GSON}\n`,
      classlessJars: '',
    },
    expected: { installed: ['gson'], traced: ['gson'], tracedDebianPackages: null, tracedBuild: ['gson'] },
  },
  javascript: {
    files: {},
    artefacts: {
      buildTrace: '5  chdir("/work/node_modules/esbuild") = 0\n',
      npmLs: JSON.stringify({ dependencies: { esbuild: { version: '0.19.0' }, 'left-pad': { version: '1.3.0' } } }),
      packageIndex: '{"dir":"/work/node_modules/esbuild","name":"esbuild"}\n{"dir":"/work/node_modules/left-pad","name":"left-pad"}\n',
      runTrace: open(6, '/work/node_modules/left-pad/index.js'),
    },
    expected: { installed: ['esbuild', 'left-pad'], traced: ['left-pad'], tracedDebianPackages: null, tracedBuild: ['esbuild'] },
  },
  cpp: {
    files: { 'CMakeLists.txt': 'project(t CXX)\nfind_package(ZLIB REQUIRED)\nadd_executable(t main.cpp)\n' },
    artefacts: {
      configureLog: '-- Found ZLIB: /usr/lib/x86_64-linux-gnu/libz.so (found version "1.2.13")\n',
      configureTrace: open(7, '/usr/share/cmake-3.25/Modules/FindZLIB.cmake'),
      buildTrace: open(8, '/usr/include/zlib.h'),
      runTrace: [open(9, '/lib/x86_64-linux-gnu/libz.so.1'), open(9, '/lib/x86_64-linux-gnu/libc.so.6')].join('\n'),
      dpkgOwners: 'zlib1g:amd64: /lib/x86_64-linux-gnu/libz.so.1\nzlib1g-dev:amd64: /usr/include/zlib.h\nlibc6:amd64: /lib/x86_64-linux-gnu/libc.so.6\n',
    },
    expected: { installed: ['zlib'], traced: ['z'], tracedDebianPackages: ['zlib1g'], tracedBuild: ['zlib'] },
  },
};

describe.each(LANGUAGES)('%s layers over a recorded execution', (language) => {
  const e = eco(language);
  const { files, artefacts, expected } = RECORDED[language];

  it('are given artefacts of every declared name', () => {
    expect(Object.keys(artefacts).sort()).toEqual([...e.artefacts].sort());
  });

  it('extract D2, D3 and D3-build reading only what they declare', () => {
    const installed = extractLayer(e.installed, artefacts, files);
    expect(installed).toEqual(expected.installed);
    expect(extractLayer(e.traced, artefacts)).toEqual(expected.traced);
    expect(e.tracedDebianPackages ? extractLayer(e.tracedDebianPackages, artefacts) : null).toEqual(expected.tracedDebianPackages);
    expect(e.tracedBuild ? extractLayer(e.tracedBuild, artefacts, installed) : null).toEqual(expected.tracedBuild);
  });
});

/** A container where every command succeeds and every file read has some text. */
function fakeSession(): Sandbox<ContainerLimits> & { commands: string[][] } {
  const commands: string[][] = [];
  const ok = (output: string): ExecResult => ({ exitCode: 0, output, timedOut: false, durationMs: 1 });
  return {
    commands,
    put: async () => undefined,
    exec: async (cmd: string[]) => {
      commands.push(cmd);
      return ok(cmd.join(' ').includes('-perm -u+x') ? 'build/t\n' : '');
    },
    readText: async (path: string) => `contents of ${path}`,
    oomKilled: async () => false,
    sealForRun: async (afterKill?: () => Promise<void>) => afterKill?.(),
    probe: async () => null,
    hostInitPid: 0,
    containerId: '',
    limits: DEFAULT_LIMITS,
  } as unknown as Sandbox<ContainerLimits> & { commands: string[][] };
}

const PROJECTS: Record<Language, ProjectFiles> = {
  python: { 'requirements.txt': 'six\n', 'main.py': 'import six\n' },
  java: {
    'pom.xml': '<project><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>',
    'src/main/java/App.java': 'public class App {\n  public static void main(String[] args) {}\n}\n',
  },
  javascript: { 'package.json': '{"dependencies":{}}', 'index.js': 'console.log(1)\n' },
  cpp: { 'CMakeLists.txt': 'project(t CXX)\nadd_executable(t main.cpp)\n', 'main.cpp': 'int main() {}\n' },
};

describe.each(LANGUAGES)('the %s runner', (language) => {
  it('stores exactly its ecosystem\'s artefacts, and says how it ran the program', async () => {
    const session = fakeSession();
    const r = await RUNNERS[language](session, PROJECTS[language], DEFAULT_LIMITS);
    expect(r.success).toBe(true);
    expect(Object.keys(r.artefacts).sort()).toEqual([...eco(language).artefacts].sort());
    expect(r.run).not.toBeNull();
    expect(session.commands).toContainEqual(r.run!.traced);
    expect(r.run!.traced.join(' ')).toContain('strace');
    expect(r.run!.command.join(' ')).not.toContain('strace');
  });
});
