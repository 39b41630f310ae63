import { DATED_PIP, resolutionCutoff } from '../../domain/resolveAsOf';
import { OUT, type Steps } from './steps';

/** What a runner is told besides the project: the day the install resolves as of (docs/resolution.md). */
export interface RunnerOptions {
  /** YYYY-MM-DD; absent: the registries as they are today. */
  resolveAsOf?: string;
}

/** The pip that honours a date, as a folder of the harness's own: never in the venv, so never in `pip list` (D2). */
const DATED_PIP_DIR = `${OUT}/dated-pip`;

/**
 * The install command of a requirements file: the image's pip (23.0.1, which has no date option), or,
 * with a date, pip 26.0.1 from the package index (hash-checked) run from the harness's folder against
 * the venv's interpreter, with `--uploaded-prior-to`. Installing that pip is the harness's step: its
 * failure is a fault of the harness, never the project's.
 */
export async function pipInstallCommand<A extends string>(steps: Steps<A>, manifest: string, o: RunnerOptions): Promise<{ command: string[]; shown: string }> {
  if (!o.resolveAsOf) return { command: ['pip', 'install', '--no-input', '-r', manifest], shown: `pip install --no-input -r ${manifest}` };
  const pin = `${OUT}/dated-pip.txt`;
  await steps.harness(
    `printf '%s\\n' 'pip==${DATED_PIP.version} --hash=sha256:${DATED_PIP.sha256}' > ${pin} && pip install --no-input --no-deps --disable-pip-version-check --require-hashes --target ${DATED_PIP_DIR} -r ${pin}`,
    `installing pip ${DATED_PIP.version} for resolve_as_of`,
  );
  const cutoff = resolutionCutoff(o.resolveAsOf);
  return {
    command: ['python', `${DATED_PIP_DIR}/pip`, 'install', '--no-input', '--disable-pip-version-check', `--uploaded-prior-to=${cutoff}`, '-r', manifest],
    shown: `pip install --no-input --uploaded-prior-to=${cutoff} -r ${manifest} (pip ${DATED_PIP.version})`,
  };
}

/** npm's own option: only versions published on or before the instant. */
export function npmDateOptions(o: RunnerOptions): string[] {
  return o.resolveAsOf ? [`--before=${resolutionCutoff(o.resolveAsOf)}`] : [];
}
