import type { PresetSpec } from '../../domain/agentSpec';
import type { Sandbox } from '../../sandbox';
import { shellQuote } from '../../text/shellQuote';
import { PRESETS } from '../presets';
import type { AgentPreset, PresetCall, PresetUsage } from '../presets/types';
import { knownSecrets, redactSecrets } from '../secrets';
import { AgentInputError } from '../types';
import { AGENT_BIN_DIR, AGENT_NODE, AGENT_VERSION_FILE } from './agentTools';
import { agentCommandLine, agentStdout, RUN_DIR } from './agentCommand';
import { attribute, type Attribution } from './attribution';
import { namedVariables } from '../namedVariables';
import { RELAY_SOCKET, startModelRelay } from './modelRelay';
import type { HostAllowList } from './packageHosts';
import { describeTargets, PACKAGE_SOCKET, startPackageProxy, type ProxiedTarget } from './packageProxy';
import { RELAY_SCRIPT } from './relayScript';
import { relayPlan } from './relayPlan';

/** Where the sandbox finds the host relay's socket (a bind of the call's relay folder). */
export const RELAY_MOUNT = '/run/envgap-model';
const HOME = '/root';
const STDOUT_BYTES = 4 * 1024 * 1024;
const SESSION_BYTES = 64 * 1024 * 1024;

export interface PresetCallInput {
  spec: PresetSpec;
  hostEnv: NodeJS.ProcessEnv;
  /** The open sandbox: the agent's tools at AGENT_TOOLS_DIR, `relayDir` at RELAY_MOUNT. */
  sandbox: Sandbox;
  /** The host folder bind-mounted at RELAY_MOUNT. */
  relayDir: string;
  /** The hosts the package proxy lets the agent reach (packageAllowList). */
  packages: HostAllowList;
  /** The project or repository in the sandbox (no shell quoting needed). */
  workspace: string;
  prompt: string;
  /** The archive of the agent's session from its previous call (its sessionPaths under HOME), to continue. */
  session: Buffer | null;
  timeoutS: number;
  /** Each chunk of output (a heartbeat). */
  onOutput?: () => void;
}

export interface PresetCallResult {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** stdout and stderr together, every known secret redacted. */
  output: string;
  /** stdout alone, redacted. */
  stdout: string;
  usage: PresetUsage;
  /** Its final message, where the preset can tell it from its log. */
  finalText: string | null;
  costSource: string | null;
  /** `<kind> <what its --version printed>`. */
  version: string | null;
  attribution: Attribution;
  /** The session to continue at the next call (null where the preset keeps none, or memory is off). */
  session: Buffer | null;
  /** The model calls the relay passed on, and how many failed. */
  modelCalls: { total: number; failed: number };
  /** What the agent asked the package proxy for. */
  network: ProxiedTarget[];
}

export function presetOf(spec: PresetSpec): AgentPreset {
  return PRESETS[spec.kind];
}

/** Where the package proxy listens on the sandbox's loopback: never the model relay's port. */
export function packageProxyPort(relayPort: number): number {
  return relayPort === 18081 ? 18082 : 18081;
}

/** The variables that send package managers (pip, npm, Maven, apt, curl) through the package proxy, and nothing on loopback. */
export function proxyEnv(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const none = '127.0.0.1,localhost,::1';
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: none, no_proxy: none, npm_config_proxy: url, npm_config_https_proxy: url };
}

/** The variables the agent is given: the preset's, its key by name, and those the spec names; a named one unset is refused. */
export function presetEnv(spec: PresetSpec, hostEnv: NodeJS.ProcessEnv, call: PresetCall, extra: Record<string, string> = {}): string[] {
  const preset = presetOf(spec);
  const names = namedVariables(spec);
  const missing = names.filter((n) => hostEnv[n] === undefined);
  if (missing.length > 0) throw new AgentInputError(`${preset.title} agent "${spec.name}": ${missing.join(', ')} not set in the worker's environment`);
  const named = Object.fromEntries(names.map((n) => [n, hostEnv[n]!]));
  return Object.entries({ ...extra, ...preset.env(call), ...named, HOME: call.home }).map(([k, v]) => `${k}=${v}`);
}

/**
 * One call of a preset agent in its sandbox: its settings under a clean HOME, its previous session
 * restored where it continues one, the sandbox's end of the model relay up, its command run in the
 * workspace under the time limit, then its session and what it printed read back, and the call
 * attributed (attribution.ts). Nothing of the worker host but the relay's socket is in reach.
 */
export async function runPresetCall(input: PresetCallInput): Promise<PresetCallResult> {
  const { spec, sandbox } = input;
  const preset = presetOf(spec);
  const plan = relayPlan(spec.base_url ?? preset.vendor.baseUrl);
  const resume = Boolean(input.session) && spec.memory && preset.sessionPaths !== null;
  const call: PresetCall = {
    model: spec.model ?? preset.vendor.model,
    baseUrl: plan.inside,
    apiKeyEnv: spec.api_key_env ?? preset.vendor.apiKeyEnv,
    promptFile: `${RUN_DIR}/prompt.md`,
    workspace: input.workspace,
    home: HOME,
    resume,
  };
  const proxyPort = packageProxyPort(plan.port);
  const env = presetEnv(spec, input.hostEnv, call, proxyEnv(proxyPort));
  await sandbox.put(HOME, preset.homeFiles(call));
  await sandbox.put(RUN_DIR, { 'prompt.md': input.prompt, 'relay.js': RELAY_SCRIPT });
  if (resume) await sandbox.putArchive(HOME, input.session!);

  const relay = await startModelRelay(input.relayDir, plan.upstream);
  let run;
  let network: ProxiedTarget[] = [];
  try {
    const proxy = await startPackageProxy(input.relayDir, input.packages);
    const relays = `${plan.port}=${RELAY_MOUNT}/${RELAY_SOCKET} ${proxyPort}=${RELAY_MOUNT}/${PACKAGE_SOCKET}`;
    const script = [
      `${AGENT_NODE} ${RUN_DIR}/relay.js ${RUN_DIR}/relay.ready ${relays} </dev/null >/dev/null 2>&1 &`,
      `i=0; while [ ! -e ${RUN_DIR}/relay.ready ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`,
      `export PATH=${AGENT_BIN_DIR}:$PATH`,
      `cd ${shellQuote(input.workspace)}`,
      // The relay is left running: the exec's wrapper kills what the command leaves.
      agentCommandLine(preset.command(call)),
    ].join('\n');
    try {
      // No network but envgap's relays while the agent runs: the model endpoint and the package indexes.
      run = await sandbox.offline(() => sandbox.exec(['bash', '-c', script], { timeoutS: input.timeoutS, env, workdir: input.workspace, step: 'agent', onOutput: input.onOutput }));
    } finally {
      network = proxy.targets();
      await proxy.close();
    }
  } finally {
    await relay.close();
  }

  const secrets = knownSecrets(spec, input.hostEnv);
  const stdout = redactSecrets(await agentStdout(sandbox, STDOUT_BYTES), secrets);
  const reached = describeTargets(network);
  const output = redactSecrets(reached ? `${run.output.trimEnd()}\n${reached}\n` : run.output, secrets);
  const version = (await sandbox.readFile(AGENT_VERSION_FILE, 4096))?.toString('utf8').trim() ?? null;
  const session = spec.memory && preset.sessionPaths ? await saveSession(sandbox, preset.sessionPaths) : null;
  const attribution = attribute({
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    timeoutS: input.timeoutS,
    calls: relay.calls,
    reported: preset.reportedFailure?.(output) ?? null,
    agent: `${preset.title} agent "${spec.name}"`,
  });
  return {
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    output,
    stdout,
    usage: preset.usage(stdout),
    finalText: preset.finalText?.(stdout) ?? null,
    costSource: preset.costSource,
    version: version ? `${preset.kind} ${version.split('\n')[0]}` : null,
    attribution,
    session,
    modelCalls: { total: relay.calls.length, failed: relay.calls.filter((c) => c.status === null || c.status >= 400).length },
    network,
  };
}

/** The agent's session folders under HOME as one archive, or null where it left none. */
async function saveSession(sandbox: Sandbox, paths: string[]): Promise<Buffer | null> {
  const list = paths.map((p) => shellQuote(p)).join(' ');
  const r = await sandbox.exec(['bash', '-c', `cd ${HOME} && found=$(for p in ${list}; do [ -e "$p" ] && echo "$p"; done); [ -n "$found" ] || exit 3; tar -cf ${RUN_DIR}/session.tar $found`], { timeoutS: 120 });
  if (r.exitCode === 3) return null;
  if (r.exitCode !== 0) throw new Error(`keeping the agent's session failed (exit ${r.exitCode}): ${r.output.slice(-500)}`);
  return sandbox.readFile(`${RUN_DIR}/session.tar`, SESSION_BYTES);
}
