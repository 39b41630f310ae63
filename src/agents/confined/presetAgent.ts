import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PresetSpec } from '../../domain/agentSpec';
import type { Settings } from '../../infra/settings';
import { tail } from '../tail';
import { AgentAbortedError, AgentCallFailedError, ModelEndpointError, type Agent, type AgentRequest, type AgentResponse } from '../types';
import { AGENT_WORKSPACE, withAgentSandbox, type Confinement } from './agentSandbox';
import { AGENT_TOOLS_DIR, agentToolsVolume } from './agentTools';
import { RELAY_SOCKET } from './modelRelay';
import { packageAllowList } from './packageHosts';
import { presetOf, RELAY_MOUNT, runPresetCall } from './presetCall';
import { readWorkspace } from './workspaceFiles';

export type { Confinement } from './agentSandbox';

const TRANSCRIPT_CHARS = 20_000;

/** A unix socket's path has at most 107 bytes (sun_path); the relay's must fit. */
const MAX_SOCKET_PATH = 100;

/**
 * The host folder whose socket is the sandbox's only way to the model endpoint (bind-mounted at
 * RELAY_MOUNT): named by a hash of the sandbox's name, under the state folder, or the temporary folder
 * where that path would be too long for a socket.
 */
export function relayDirOf(settings: Pick<Settings, 'stateDir'>, sandboxName: string): string {
  const id = createHash('sha256').update(sandboxName).digest('hex').slice(0, 16);
  const dir = path.join(settings.stateDir, 'relays', id);
  return path.join(dir, RELAY_SOCKET).length <= MAX_SOCKET_PATH ? dir : path.join(os.tmpdir(), 'envgap-relays', id);
}

/** The binds that give a sandbox a preset's tools (read-only) and the relay's folder. */
export async function presetBinds(c: Confinement, spec: PresetSpec, sandboxName: string): Promise<string[]> {
  const preset = presetOf(spec);
  const tools = await agentToolsVolume(c.docker, c.settings, preset, spec.version ?? preset.install.version, (line) => c.log?.(`[agent tools ${preset.kind}] ${line}`));
  const relayDir = relayDirOf(c.settings, sandboxName);
  await fs.mkdir(relayDir, { recursive: true });
  return [`${tools}:${AGENT_TOOLS_DIR}:ro`, `${relayDir}:${RELAY_MOUNT}`];
}

/**
 * A preset agent answering Gen and Repair in the environment gap protocol: each call in a sandbox of
 * its own (agentSandbox.ts) with the preset's tools and model relay, the previous project in /work,
 * its session continued where memory is on; the project is what it leaves in /work
 * (workspaceHygiene.ts). Its failures are attributed (attribution.ts): its own are an
 * AgentCallFailedError (a failed iteration), the endpoint's a ModelEndpointError (the instance's error).
 */
export class PresetAgent implements Agent {
  constructor(
    private readonly spec: PresetSpec,
    private readonly env: NodeJS.ProcessEnv,
    private readonly confinement: Confinement | undefined,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  async call(req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse> {
    const c = this.confinement;
    if (!c) throw new Error(`${presetOf(this.spec).title} agent "${this.name}": this worker has no Docker to confine it`);
    if (signal?.aborted) throw new AgentAbortedError(`agent "${this.name}": aborted before start`);
    let relayDir = '';
    const binds = async (name: string) => {
      relayDir = relayDirOf(c.settings, name);
      return presetBinds(c, this.spec, name);
    };
    try {
      return await withAgentSandbox(c, { ...req, binds, network: 'none', signal }, async (sandbox) => {
        await sandbox.put(AGENT_WORKSPACE, req.previousFiles ?? {});
        const started = Date.now();
        const r = await runPresetCall({ spec: this.spec, hostEnv: this.env, sandbox, relayDir, packages: packageAllowList(c.settings), workspace: AGENT_WORKSPACE, prompt: req.prompt, session: req.session ?? null, timeoutS: this.spec.timeout_s });
        if (signal?.aborted) throw new AgentAbortedError(`agent "${this.name}": aborted`);
        const spent = { ...r.usage, transcript: tail(r.output, TRANSCRIPT_CHARS), session: r.session, agentVersion: r.version, costSource: r.costSource };
        if (r.attribution.kind === 'endpoint') throw new ModelEndpointError(r.attribution.fault, `${r.attribution.message}; output tail:\n${tail(r.output, 2000)}`);
        if (r.attribution.kind === 'agent') throw new AgentCallFailedError(r.attribution.errorClass, `${r.attribution.message}; output tail:\n${tail(r.output, 4000)}`, spent);
        const { files, notes } = await readWorkspace(sandbox, AGENT_WORKSPACE);
        const noted = notes.length > 0 ? `\n[envgap] not project files: ${notes.join('; ')}\n` : '';
        if (Object.keys(files).length === 0) throw new AgentCallFailedError('AgentOutput', `${r.version ?? this.name} left no project files in ${AGENT_WORKSPACE}${noted}`, spent);
        return { files, ...r.usage, durationMs: Date.now() - started, agentMs: r.durationMs, transcript: tail(r.output + noted, TRANSCRIPT_CHARS), session: r.session, agentVersion: r.version, costSource: r.costSource };
      });
    } finally {
      if (relayDir) await fs.rm(relayDir, { recursive: true, force: true });
    }
  }
}
