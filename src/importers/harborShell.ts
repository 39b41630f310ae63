import { REPO_ROOT } from '../readiness/paths';

/**
 * A Harbor agent works in one shell (Terminus's tmux, Claude Code's Bash tool): a `cd` or an
 * activated virtual environment lasts into its next command. A readiness session runs each recorded
 * step with its own `bash -c` in /repo, so an imported command first sources this file, which puts
 * back the directory and the exported variables the previous command left and saves its own on exit
 * (its exit status unchanged).
 */
export const HARBOR_SHELL_DIR = '/opt/envgap-harbor';
export const HARBOR_SHELL_FILE = `${HARBOR_SHELL_DIR}/shell.sh`;

const q = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The file, for a task whose commands start in `workdir` (its WORKDIR, linked to /repo). */
export function harborShellScript(workdir: string): string {
  return [
    '# envgap import harbor: one shell across the recorded commands (its directory and exported variables).',
    `mkdir -p ${HARBOR_SHELL_DIR}/state`,
    `if [ -f ${HARBOR_SHELL_DIR}/state/env ]; then . ${HARBOR_SHELL_DIR}/state/env; fi`,
    `cd "$(cat ${HARBOR_SHELL_DIR}/state/cwd 2>/dev/null || echo ${q(workdir)})" 2>/dev/null || cd ${REPO_ROOT}`,
    `trap 'export -p | grep -v -E "^declare -x (OLDPWD|PWD|SHLVL|_)=" > ${HARBOR_SHELL_DIR}/state/env; pwd > ${HARBOR_SHELL_DIR}/state/cwd' EXIT`,
    '',
  ].join('\n');
}

/** A recorded command, run in the agent's shell. */
export function inHarborShell(command: string): string {
  return `. ${HARBOR_SHELL_FILE}\n${command}`;
}

/**
 * The session's first command, envgap's own: the task's working directory (`/app`, say) made a link
 * to /repo, where envgap puts the repository, so the agent's commands and the task's tests find it
 * where Harbor put it; and the folders Harbor mounts into every environment (/logs/...).
 */
export function workdirLinkCommand(workdir: string): string {
  const parent = parentOf(workdir);
  const mkdir = parent === '/' ? '' : `mkdir -p ${q(parent)} && `;
  const link = workdir === REPO_ROOT || workdir === '/' ? ':' : `if [ ! -e ${q(workdir)} ]; then ${mkdir}ln -s ${REPO_ROOT} ${q(workdir)}; fi`;
  return `${link} && mkdir -p /logs/agent /logs/verifier /logs/artifacts`;
}

function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}
