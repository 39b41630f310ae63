import type Docker from 'dockerode';
import * as path from 'node:path';
import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import type { RunSpec } from '../domain/runSpec';
import type { ContainerLimits } from '../domain/study';
import { CACHE_BINDS } from '../infra/caches';
import { mirrorConfig } from '../infra/mirrors';
import { CA_ENV } from '../infra/recipes';
import type { Settings } from '../infra/settings';
import { Sandbox } from '../sandbox';
import { RUNNERS } from './runners';
import type { RunnerResult } from './runners/steps';
import type { RunnerOptions } from './runners/resolution';

/**
 * The sandbox a project of the environment gap protocol is executed in (an iteration's Execute, a
 * confirmation's trial): the runtime image, the package indexes' mirrors and CA bundle, the download
 * caches writable in the install steps only, the sandbox network, ptrace for strace.
 */
export async function openProjectSandbox(
  deps: { docker: Docker; settings: Settings; log?: (line: string) => void },
  o: { image: string; name: string; labels: Record<string, string>; limits: ContainerLimits; signal: AbortSignal },
): Promise<Sandbox<ContainerLimits>> {
  const mirrors = mirrorConfig(deps.settings);
  const session = await Sandbox.open(
    { docker: deps.docker, settings: deps.settings, log: (line) => deps.log?.(`[disk] ${line}`) },
    { image: o.image, name: o.name, labels: o.labels, limits: o.limits, env: [...CA_ENV, ...mirrors.env], binds: mirrors.binds, caches: { binds: CACHE_BINDS, mode: 'install-only' }, network: 'sandbox', ptrace: true, signal: o.signal },
  );
  try {
    for (const [file, content] of Object.entries(mirrors.files)) await session.put(path.posix.dirname(file), { [path.posix.basename(file)]: content });
  } catch (err) {
    await session.close();
    throw err;
  }
  return session;
}

/**
 * The language's runner on a project in an open sandbox: apt.txt, install or build, the traced run.
 * A failed step at the container's disk limit is DiskLimit, whatever the step's own output says.
 * `options.resolveAsOf`: pip, npm and Maven resolve as of that day (C++ is not pinned; docs/resolution.md).
 */
export async function runProject(session: Sandbox<ContainerLimits>, language: Language, files: ProjectFiles, limits: ContainerLimits, run?: RunSpec, options: RunnerOptions = {}): Promise<RunnerResult> {
  const r = await RUNNERS[language](session, files, limits, run, options);
  if (!r.success && (await session.diskLimitHit())) {
    const line = `envgap: the container reached its disk limit of ${session.diskMb} MB (disk_mb; ${session.record.disk}) and writes failed or it was stopped`;
    r.errorClass = 'DiskLimit';
    r.errorOutput = `${r.errorOutput ?? ''}\n${line}`;
    r.log = `${r.log}\n${line}`;
  }
  return r;
}
