import type { Sandbox } from '../../sandbox';

/** envgap's own files in an agent's sandbox: the prompt, the relay's script, what the agent printed. */
export const RUN_DIR = '/run/envgap';
const STDOUT_FILE = `${RUN_DIR}/agent.stdout`;

/**
 * An agent's command as the sandbox runs it: no standard input, its stdout into a file of its own (its
 * usage and final message are read from there), then into the output too, after its stderr.
 */
export function agentCommandLine(command: string): string {
  return `mkdir -p ${RUN_DIR}; ( ${command} ) </dev/null >${STDOUT_FILE}; status=$?; cat ${STDOUT_FILE}; exit $status`;
}

/** What the agent's command printed on stdout, at most `maxBytes`. */
export async function agentStdout(sandbox: Sandbox, maxBytes: number): Promise<string> {
  return (await sandbox.readFile(STDOUT_FILE, maxBytes))?.toString('utf8') ?? '';
}
