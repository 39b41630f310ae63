import { ensureAgentImage } from '../../infra/agentImage';
import type { CliSpec } from '../../domain/agentSpec';
import { ensureRecipeImage } from '../../infra/images';
import { readinessRecipe } from '../../readiness/images';
import { cliCommand, cliEnv, readCliOutput } from '../cliRun';
import type { ReadmeReply } from '../registry/types';
import { knownSecrets, redactSecrets } from '../secrets';
import { tail } from '../tail';
import { AgentAbortedError, AgentCallFailedError, type AgentRequest, type AgentResponse } from '../types';
import { AGENT_WORKSPACE, withAgentSandbox, type Confinement } from './agentSandbox';
import { agentCommandLine, agentStdout, RUN_DIR } from './agentCommand';
import { attribute } from './attribution';
import { readWorkspace } from './workspaceFiles';

const TRANSCRIPT_CHARS = 20_000;
/** How much of a README answer (or the output standing for it) is read. */
const README_OUTPUT_BYTES = 1024 * 1024;

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
    const run = await sandbox.exec(['bash', '-c', agentCommandLine(command)], { timeoutS: spec.timeout_s, env, workdir: AGENT_WORKSPACE, step: 'agent' });
    if (signal?.aborted) throw new AgentAbortedError(`cli agent "${spec.name}": aborted`);
    const stdout = await agentStdout(sandbox, 4 * 1024 * 1024);
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

/**
 * A `cli` agent's README answer in a sandbox of its own: the readiness image (with the spec's `install`
 * on top), the prompt at /work/prompt.md; the answer is /work/answer.md where it wrote one, else its
 * standard output. Never on the worker.
 */
export async function answerCliConfined(spec: CliSpec, hostEnv: NodeJS.ProcessEnv, c: Confinement, o: { key: string; prompt: string; timeoutS: number; signal?: AbortSignal }): Promise<ReadmeReply> {
  const env = Object.entries(cliEnv(spec, hostEnv, 'container', 'refuse')).map(([k, v]) => `${k}=${v}`);
  const image = async () => {
    const readiness = await ensureRecipeImage(c.docker, c.settings, 'readiness', readinessRecipe, (line) => c.log?.(`[image readiness] ${line}`));
    return spec.install ? ensureAgentImage(c.docker, readiness, spec.install, (line) => c.log?.(`[image agent] ${line}`)) : readiness;
  };
  const r = await withAgentSandbox(c, { instanceId: o.key, iteration: 0, language: 'python', image, signal: o.signal }, async (sandbox) => {
    await sandbox.put(AGENT_WORKSPACE, { 'prompt.md': o.prompt });
    const command = cliCommand(spec, { promptFile: `${AGENT_WORKSPACE}/prompt.md`, workspace: AGENT_WORKSPACE, prompt: o.prompt });
    const run = await sandbox.exec(['bash', '-c', agentCommandLine(command)], { timeoutS: o.timeoutS, env, workdir: AGENT_WORKSPACE, step: 'agent' });
    const stdout = await agentStdout(sandbox, README_OUTPUT_BYTES);
    const answer = (await sandbox.readFile(`${AGENT_WORKSPACE}/answer.md`, README_OUTPUT_BYTES))?.toString('utf8') ?? null;
    return { run, stdout, answer, durationMs: run.durationMs };
  });
  const printed = readCliOutput(spec, hostEnv, { output: r.run.output, stdout: r.stdout });
  const spent = { durationMs: r.run.durationMs, ...printed.usage };
  if (r.run.timedOut) return { kind: 'none', status: 'timeout', problem: `stopped at the agent's time limit of ${o.timeoutS} s`, log: printed.output, spent };
  if (r.run.exitCode !== 0) return { kind: 'none', status: 'failed', problem: `the agent's command exited ${r.run.exitCode ?? 'by a signal'}`, log: printed.output, spent };
  return { kind: 'text', text: r.answer === null ? printed.stdout : redactSecrets(r.answer, knownSecrets(spec, hostEnv)), spent };
}
