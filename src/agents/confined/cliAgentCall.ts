import { ensureAgentImage } from '../../infra/agentImage';
import type { CliSpec } from '../../domain/agentSpec';
import { cliCommand, cliEnv, readCliOutput } from '../cliRun';
import { tail } from '../tail';
import { AgentAbortedError, AgentCallFailedError, type AgentRequest, type AgentResponse } from '../types';
import { AGENT_WORKSPACE, withAgentSandbox, type Confinement } from './agentSandbox';
import { attribute } from './attribution';
import { readWorkspace } from './workspaceFiles';

const RUN_DIR = '/run/envgap';
const TRANSCRIPT_CHARS = 20_000;

/**
 * A `cli` agent's Gen or Repair in a sandbox of its own (agentSandbox.ts): the language's runtime image,
 * with the spec's `install` built on top once; the previous project in /work, the prompt beside it; the
 * command template run there with only the variables the spec names (all of them set). Its crash or
 * time limit is its own failed call (attribution.ts); the project is what it leaves in /work.
 */
export async function runCliConfined(spec: CliSpec, hostEnv: NodeJS.ProcessEnv, c: Confinement, req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse> {
  const env = Object.entries(cliEnv(spec, hostEnv, 'container', 'refuse')).map(([k, v]) => `${k}=${v}`);
  const image = spec.install ? (runtime: string) => ensureAgentImage(c.docker, runtime, spec.install!, (line) => c.log?.(`[image agent] ${line}`)) : undefined;
  return withAgentSandbox(c, { ...req, image, signal }, async (sandbox) => {
    await sandbox.put(AGENT_WORKSPACE, req.previousFiles ?? {});
    await sandbox.put(RUN_DIR, { 'prompt.md': req.prompt });
    const command = cliCommand(spec, { promptFile: `${RUN_DIR}/prompt.md`, workspace: AGENT_WORKSPACE, prompt: req.prompt });
    const started = Date.now();
    const run = await sandbox.exec(['bash', '-c', `( ${command} ) </dev/null >${RUN_DIR}/agent.stdout; status=$?; cat ${RUN_DIR}/agent.stdout; exit $status`], { timeoutS: spec.timeout_s, env, workdir: AGENT_WORKSPACE, step: 'agent' });
    if (signal?.aborted) throw new AgentAbortedError(`cli agent "${spec.name}": aborted`);
    const stdout = (await sandbox.readFile(`${RUN_DIR}/agent.stdout`, 4 * 1024 * 1024))?.toString('utf8') ?? '';
    const printed = readCliOutput(spec, hostEnv, { output: run.output, stdout });
    const transcript = tail(printed.output, TRANSCRIPT_CHARS);
    const attribution = attribute({ exitCode: run.exitCode, timedOut: run.timedOut, timeoutS: spec.timeout_s, calls: [], reported: null, agent: `cli agent "${spec.name}"` });
    if (attribution.kind !== 'ok') {
      // No relay stands between a cli agent and its endpoint: every failure of its call is its own.
      const errorClass = attribution.kind === 'agent' ? attribution.errorClass : 'AgentCrash';
      throw new AgentCallFailedError(errorClass, `${attribution.message}; output tail:\n${tail(printed.output, 4000)}`, { ...printed.usage, transcript });
    }
    const { files, notes } = await readWorkspace(sandbox, AGENT_WORKSPACE);
    const noted = notes.length > 0 ? `\n[envgap] not project files: ${notes.join('; ')}\n` : '';
    if (Object.keys(files).length === 0) throw new AgentCallFailedError('AgentOutput', `cli agent "${spec.name}" left no project files in ${AGENT_WORKSPACE}${noted}`, { ...printed.usage, transcript });
    return { files, ...printed.usage, durationMs: Date.now() - started, agentMs: run.durationMs, transcript: tail(printed.output + noted, TRANSCRIPT_CHARS) };
  });
}
