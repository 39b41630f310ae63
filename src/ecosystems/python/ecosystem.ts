import { dependencyManifest } from '../dependencyManifest';
import type { Ecosystem } from '../ecosystem';
import { layer } from '../ecosystem';
import { classifyPythonFailure, type PythonStep } from './classify';
import { PYTHON_COVERAGE_DIR, PYTHON_COVERAGE_VERSION } from './coverage';
import { diffInstalled, parsePipListJson } from './piplist';
import { parseDistIndex } from './distIndex';
import { mapFilesToDistributions } from './record';
import { parseRequirements } from './requirements';
import { PYTHON_STATIC } from './staticBaseline';
import { TRACED_OUTSIDE_INSTALLED } from '../tracedBase';

/** What the Python runner stores (src/activities/runners/python.ts). */
export const PYTHON_ARTEFACTS = ['installedBefore', 'installedAfter', 'distributionIndex', 'baselineTrace', 'runTrace'] as const;
export type PythonArtefact = (typeof PYTHON_ARTEFACTS)[number];

/** Python: requirements.txt, pip in a venv, D3 through the installed distributions' RECORD files. */
export const PYTHON: Ecosystem<'python', PythonArtefact, PythonStep> = {
  language: 'python',
  displayName: 'Python',
  ...dependencyManifest({ file: 'requirements.txt', purlType: 'pypi', parse: parseRequirements, fields: ['specifier'] }),
  artefacts: PYTHON_ARTEFACTS,
  installed: {
    ...layer(['installedBefore', 'installedAfter'], (t) => diffInstalled(parsePipListJson(t.need('installedBefore')), parsePipListJson(t.need('installedAfter')))),
    readsProject: false,
  },
  traced: layer(['runTrace', 'baselineTrace', 'distributionIndex'], (t) => {
    t.need('runTrace');
    const dists = parseDistIndex(t.need('distributionIndex'), 'distributionIndex');
    // A bare interpreter start is subtracted: what the interpreter and .pth hooks open is not the program's use.
    return mapFilesToDistributions(t.opened('runTrace'), dists, { baselinePaths: t.opened('baselineTrace') });
  }),
  tracedDebianPackages: null,
  tracedBuild: null,
  // The venv's own distributions (pip, setuptools) are in the distribution index but never in the install's diff.
  tracedBase: TRACED_OUTSIDE_INSTALLED,
  classifyFailure: classifyPythonFailure,
  image: {
    packages: ['python3', 'python3-venv'],
    // coverage.py for the run's coverage goes into the harness's folder, outside the venv (checked: not in its pip list), so a run needs no index for it.
    setup: `RUN python3 -m venv /opt/venv
ENV PATH=/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1
ARG PIP_INDEX_URL
RUN pip install --no-cache-dir --no-deps --cert /etc/ssl/certs/ca-certificates.crt --target ${PYTHON_COVERAGE_DIR} coverage==${PYTHON_COVERAGE_VERSION} \\
 && python -c 'import sys; sys.path.append("${PYTHON_COVERAGE_DIR}"); import coverage, coverage.tracer; assert coverage.__version__ == "${PYTHON_COVERAGE_VERSION}"' \\
 && ! pip list --format=freeze | grep -qi '^coverage=='
`,
  },
  packageManager: {
    caches: [{ volume: 'envgap-pip-cache', path: '/root/.cache/pip' }],
    // requests falls back to CURL_CA_BUNDLE; pip clones git+ requirements with git.
    caBundleEnv: ['PIP_CERT', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'GIT_SSL_CAINFO'],
    mirror: (s) => ({
      env: [...(s.pipIndexUrl ? [`PIP_INDEX_URL=${s.pipIndexUrl}`] : []), ...(s.pipFindLinks ? ['PIP_FIND_LINKS=/wheelhouse'] : [])],
      binds: s.pipFindLinks ? [`${s.pipFindLinks}:/wheelhouse:ro`] : [],
      files: {},
    }),
  },
  staticBaseline: PYTHON_STATIC,
};
