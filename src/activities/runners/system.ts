import { isBinaryContent, type ProjectFiles } from '../../domain/files';
import type { ContainerLimits } from '../../domain/study';
import { parseAptTxt } from '../../ecosystems/apt';
import { classifyAptFailure } from '../../ecosystems/aptFailure';
import { ManifestError } from '../../ecosystems/manifestError';
import type { RunnerResult, Steps } from './steps';

/**
 * Installs the Debian packages an agent listed in apt.txt (the repo2docker convention), before the
 * build. The image keeps its apt lists; a stale list is refreshed once.
 */
export async function installSystemPackages<A extends string>(steps: Steps<A>, files: ProjectFiles, limits: ContainerLimits): Promise<RunnerResult<A> | null> {
  const text = files['apt.txt'];
  if (text === undefined) return null;
  if (isBinaryContent(text)) return steps.fail('system', 'Other', new ManifestError('apt.txt', null, 'a binary file (not UTF-8 text, or holding NUL bytes), not a list of packages').message, null);
  let packages: string[];
  try {
    packages = parseAptTxt(text, { fileName: 'apt.txt' });
  } catch (err) {
    if (err instanceof ManifestError) return steps.fail('system', 'Other', err.message, null);
    throw err;
  }
  if (packages.length === 0) return null;
  const install = `apt-get install -y -q --no-install-recommends ${packages.join(' ')}`;
  const r = await steps.exec('system', ['sh', '-c', `${install} || (apt-get update -q && ${install})`], limits.install_timeout_s, install);
  if (r.exitCode === 0) return null;
  return steps.failure('system', r, classifyAptFailure);
}
