import * as path from 'node:path';
import { PACKAGE_INDEX_HOSTS } from '../agents/confined/packageHosts';
import { SUPPORTS, type Support } from '../domain/readiness';
import { looksLikeSecret } from '../domain/agentSpec';
import { REPO_ROOT } from '../readiness/paths';
import { parseDockerfile, type DockerfilePlan } from './harborDockerfile';
import { envgapMetadata } from './harborEnvgapMetadata';
import { parseHarborTaskConfig, type HarborTaskConfig } from './harborTaskConfig';
import { harborVerifierCommand } from './harborVerifierCommand';

/** A Harbor task folder as the importer reads it (harborFiles.ts); paths absolute. */
export interface HarborTaskFolder {
  dir: string;
  configText: string;
  /** environment/Dockerfile, where there is one. */
  dockerfile: string | null;
  /** environment/docker-compose.yaml (or .yml): services envgap does not run. */
  compose: boolean;
  /** What a path under environment/ is. */
  kind(rel: string): 'file' | 'dir' | null;
  /** tests/test.sh exists. */
  testScript: boolean;
  /** The text of tests/test.sh, where it exists (read for what it fetches). */
  testScriptText: string | null;
}

/** A readiness repository as the study file writes it (src/cli/readinessStudyFile.ts). */
export interface StudyRepo {
  id: string;
  source: { path: string } | { git: string; commit: string };
  supports: Support[];
  entry: Partial<Record<Support, string>>;
  stage_timeout_s: number;
  scripts?: string;
  prepare?: string;
}

/** Where the repository's files come from when no one folder or git commit gives them: pieces copied into one folder. */
export interface RepoPiece {
  /** Absolute, under the task's environment/. */
  from: string;
  /** Relative to the repository's root ('' for the root). */
  to: string;
  kind: 'file' | 'dir';
}

export interface ImportedTask {
  /** The task's name as trials record it (`task_name`): [task].name, else the folder's name. */
  name: string;
  folder: string;
  /** The readiness repository's id. */
  id: string;
  config: HarborTaskConfig;
  /** The task's working directory (where the agent starts and the tests run), linked to /repo. */
  workdir: string;
  /** The repository, or null where the task cannot be one (the reasons in `unconverted`). */
  repo: Omit<StudyRepo, 'source'> | null;
  source: { kind: 'folder'; path: string } | { kind: 'git'; url: string; commit: string } | { kind: 'pieces'; pieces: RepoPiece[] } | null;
  /** The task's tests/ (absolute), where the entry is its verifier: copied beside verify.sh into the repository's scripts folder. */
  verifierTests: string | null;
  /** What of the task envgap does not take over, and why. */
  unconverted: string[];
}

/** The repository id: the task's package name with "/" as "@" (owner@name), else the folder's name; letters, digits, ".", "_", "-", "@". */
export function harborRepoId(name: string): string {
  const id = name.replace('/', '@').replace(/[^A-Za-z0-9._@-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return (id || 'task').slice(0, 128);
}

/** Hosts test.sh fetches from (curl, wget, git clone of URLs) that are not package indexes (PACKAGE_INDEX_HOSTS). */
export function fetchedHosts(script: string): string[] {
  const hosts = new Set<string>();
  for (const m of script.matchAll(/https?:\/\/([A-Za-z0-9.-]+)/g)) if (!PACKAGE_INDEX_HOSTS.includes(m[1]!)) hosts.add(m[1]!);
  return [...hosts].sort();
}

/** The stage a task's verifier is: C1 on the CPU, C3 with one GPU, C4 with more. */
export function verifierStage(gpus: number): Support {
  return gpus >= 2 ? 'multi_gpu' : gpus === 1 ? 'single_gpu' : 'cpu';
}

function repoRoot(config: HarborTaskConfig, plan: DockerfilePlan): string | null {
  if (config.workdir) return path.posix.resolve('/', config.workdir);
  if (plan.workdir && plan.workdir !== '/') return plan.workdir;
  return plan.clones[0]?.dir ?? plan.copies[0]?.to ?? null;
}

/**
 * A Harbor task as a readiness repository: the files the Dockerfile puts into the task's working
 * directory as its source (a git clone at a commit, one folder of environment/, or the pieces copied
 * there), its tests/ as the hidden scripts, its verifier as the stage's entry (harborVerifierCommand).
 * A task exported by envgap (`[metadata.envgap]`) gets its original entries back.
 */
export function harborTaskRepo(folder: HarborTaskFolder, rel: (abs: string) => string): ImportedTask {
  const tomlFile = path.join(folder.dir, 'task.toml');
  const config = parseHarborTaskConfig(folder.configText, tomlFile);
  const name = config.name ?? path.basename(folder.dir);
  const unconverted: string[] = [];
  const base = { name, folder: folder.dir, id: harborRepoId(name), config, unconverted, verifierTests: null };
  const refuse = (why: string): ImportedTask => ({ ...base, workdir: REPO_ROOT, repo: null, source: null, unconverted: [...unconverted, why] });

  if (config.steps > 0) return refuse(`a multi-step task (${config.steps} [[steps]]): envgap has no protocol for steps`);
  if (config.os !== 'linux') return refuse(`an environment for ${config.os}: envgap's readiness image is Linux`);
  if (folder.compose) return refuse('environment/docker-compose.yaml: the task needs services beside its container, which the readiness protocol does not start');
  if (!folder.dockerfile && !config.dockerImage) return refuse('no environment/Dockerfile and no [environment].docker_image');

  const plan: DockerfilePlan = folder.dockerfile ? parseDockerfile(folder.dockerfile) : { base: config.dockerImage, workdir: null, copies: [], clones: [], unconverted: [] };
  if (!folder.dockerfile) unconverted.push(`[environment].docker_image ${config.dockerImage}: a prebuilt image; envgap starts from its own readiness image, with the files of environment/ as the repository`);
  const workdir = repoRoot(config, plan) ?? REPO_ROOT;
  if (plan.base) unconverted.push(`FROM ${plan.base}: envgap's readiness image (Debian with Python 3, venv, pip, git, a C/C++ toolchain) stands in for it`);
  for (const s of plan.unconverted) unconverted.push(`Dockerfile line ${s.line}: ${s.text}: ${s.why}`);

  let source: ImportedTask['source'];
  const clone = plan.clones.find((c) => c.dir === workdir);
  for (const c of plan.clones) if (c !== clone) unconverted.push(`Dockerfile line ${c.line}: git clone ${c.url} into ${c.dir}, outside the working directory ${workdir}`);
  if (clone) {
    if (!clone.commit) return refuse(`Dockerfile line ${clone.line}: git clone ${clone.url} at no pinned commit (a readiness repository is a commit): pin it with git checkout SHA`);
    source = { kind: 'git', url: clone.url, commit: clone.commit };
    for (const c of plan.copies) unconverted.push(`Dockerfile line ${c.line}: COPY ${c.from} ${c.to} beside a git repository`);
  } else {
    const pieces: RepoPiece[] = [];
    const envDir = path.join(folder.dir, 'environment');
    const contextFiles = folder.dockerfile ? plan.copies : [{ from: '.', to: workdir, toFolder: true, line: 0 }];
    for (const c of contextFiles) {
      const kind = folder.kind(c.from);
      if (!kind) {
        unconverted.push(`Dockerfile line ${c.line}: COPY ${c.from}: no such file in environment/`);
        continue;
      }
      const to = kind === 'dir' ? c.to : c.toFolder ? path.posix.join(c.to, path.posix.basename(c.from)) : c.to;
      const inRepo = to === workdir ? '' : to.startsWith(`${workdir}/`) ? to.slice(workdir.length + 1) : null;
      if (inRepo === null) {
        unconverted.push(`Dockerfile line ${c.line}: COPY ${c.from} ${c.to}: outside the working directory ${workdir}`);
        continue;
      }
      pieces.push({ from: c.from === '.' ? envDir : path.join(envDir, c.from), to: inRepo, kind });
    }
    const one = pieces.length === 1 && pieces[0]!.kind === 'dir' && pieces[0]!.to === '' ? pieces[0]! : null;
    source = one ? { kind: 'folder', path: one.from } : { kind: 'pieces', pieces };
    if (pieces.length === 0) unconverted.push(`nothing is copied into ${workdir}: the repository starts empty`);
    if (one && one.from === envDir && folder.dockerfile) unconverted.push('the whole build context is the repository: environment/Dockerfile is one of its files');
  }

  const restored = envgapMetadata(config.metadata);
  if (restored) {
    const scripts = restored.scripts ? rel(path.join(folder.dir, 'tests', restored.scripts)) : undefined;
    return { ...base, workdir, source, repo: { id: restored.id, supports: restored.supports, entry: restored.entry, stage_timeout_s: restored.stageTimeoutS, ...(scripts ? { scripts } : {}), ...(restored.prepare ? { prepare: restored.prepare } : {}) } };
  }

  const stage = verifierStage(config.gpus);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.verifierEnv)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) unconverted.push(`[verifier].env ${k}: not a variable name`);
    else if (looksLikeSecret(k)) unconverted.push(`[verifier].env ${k}: looks like a secret, which a study file never holds; the verifier runs without it`);
    else env[k] = v;
  }
  if (!folder.testScript) {
    unconverted.push('no tests/test.sh: no verifier, so no stage of the repository\'s own (C0, C2 and C5 apply)');
    return { ...base, workdir, source, repo: { id: base.id, supports: [], entry: {}, stage_timeout_s: Math.ceil(config.verifierTimeoutS) } };
  }
  const hosts = fetchedHosts(folder.testScriptText ?? '');
  if (hosts.length > 0) unconverted.push(`tests/test.sh fetches from ${hosts.join(', ')}, not a package index: its stage needs that host reachable from the probe containers (a machine that reaches only the package indexes fails it)`);
  return {
    ...base,
    workdir,
    source,
    repo: {
      id: base.id,
      supports: SUPPORTS.filter((s) => s === stage),
      entry: { [stage]: harborVerifierCommand(workdir, env) },
      stage_timeout_s: Math.min(86_400, Math.ceil(config.verifierTimeoutS)),
    },
    verifierTests: path.join(folder.dir, 'tests'),
  };
}
