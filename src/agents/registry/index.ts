import type { AgentSpec } from '../../domain/agentSpec';
import type { Agent } from '../types';
import { cli } from './cli';
import { openai } from './openai';
import { oracle } from './oracle';
import { presetKind } from './preset';
import { replay } from './replay';
import { staticKind } from './static';
import { PROTOCOLS, type AgentKind, type AgentKindName, type AnyAgentSpec, type CreateAgentOptions, type Protocol, type SpecOf } from './types';

/**
 * The agent kinds, one module each (docs/agents.md, "Adding an agent kind"). Keyed by kind, so that a
 * kind added to the specs (src/domain/agentSpec.ts) and not here is a compile error.
 */
export const AGENT_KINDS: { readonly [K in AgentKindName]: AgentKind<SpecOf<K>> } = {
  replay,
  cli,
  openai,
  static: staticKind,
  oracle,
  'claude-code': presetKind('claude-code'),
  codex: presetKind('codex'),
  'gemini-cli': presetKind('gemini-cli'),
  'qwen-code': presetKind('qwen-code'),
  opencode: presetKind('opencode'),
};

/** The module of a kind named in a study file, or undefined for a kind there is none of. */
export function agentKind(kind: string): AgentKind<AnyAgentSpec> | undefined {
  return Object.prototype.hasOwnProperty.call(AGENT_KINDS, kind) ? (AGENT_KINDS[kind as AgentKindName] as AgentKind<AnyAgentSpec>) : undefined;
}

/** The module of a spec's kind, typed for that spec. */
export function kindOf<S extends AnyAgentSpec>(spec: S): AgentKind<S> {
  return AGENT_KINDS[spec.kind] as unknown as AgentKind<S>;
}

/** The kinds that serve a protocol, in the registry's order. */
export function kindsServing(protocol: Protocol): AgentKind<AnyAgentSpec>[] {
  return (Object.values(AGENT_KINDS) as AgentKind<AnyAgentSpec>[]).filter((k) => k.protocols[protocol] !== null);
}

const PROTOCOL_NAMES: Record<Protocol, string> = { gap: 'the environment gap protocol', readme: 'the README protocol', readiness: 'the readiness protocol' };
const STUDY_NAMES: Record<Protocol, string> = { gap: 'an environment gap study', readme: 'a README study', readiness: 'a readiness study' };

const list = (words: string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`);

/** Why a study of `protocol` cannot have an agent of `kind`, in words; null where it can. */
export function refusal(kind: string, protocol: Protocol): string | null {
  const takes = `${STUDY_NAMES[protocol]} takes ${list(kindsServing(protocol).map((k) => k.kind))} agents`;
  const mod = agentKind(kind);
  if (!mod) return `unknown agent kind "${kind}"; ${takes}`;
  if (mod.protocols[protocol]) return null;
  const serves = PROTOCOLS.filter((p) => mod.protocols[p]).map((p) => PROTOCOL_NAMES[p]);
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} agent cannot take part in ${STUDY_NAMES[protocol]}: it serves ${list(serves)} only; ${takes}`;
}

/** The gap protocol's adapter of a spec (Gen/Repair answers). */
export function createAgent(spec: AgentSpec, env: NodeJS.ProcessEnv = process.env, options: CreateAgentOptions = {}): Agent {
  const gap = kindOf(spec).protocols.gap;
  if (!gap) throw new Error(refusal(spec.kind, 'gap') ?? `agent kind ${spec.kind} has no Gen/Repair answer`);
  return gap.create(spec, env, options);
}

export type { AgentKind, CreateAgentOptions, Protocol, ReadmeReply, ReadmeRequest, Spent } from './types';
export { NOTHING_SPENT, PROTOCOLS } from './types';
