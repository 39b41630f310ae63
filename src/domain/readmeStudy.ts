import type { AgentSpec, OracleSpec, StaticSpec } from './agentSpec';
import type { RepoSource } from './readinessStudy';
import type { SandboxLimits } from './sandboxLimits';

export type { OracleSpec } from './agentSpec';

/**
 * A README study's agent: `replay` reads EnConda's output layout; `openai` and `cli` answer in one call
 * (a `cli` agent with `in_container` works inside the repository's container, as in the readiness
 * protocol); `oracle` answers with the gold.
 */
// The static import-scan baseline writes manifests; it has no README answer.
export type ReadmeAgentSpec = (Exclude<AgentSpec, StaticSpec> & { in_container?: boolean }) | OracleSpec;

/** Who decides that two descriptions or two fixes are alike (docs/readme.md, "Scoring"). */
export type JudgeSpec = { kind: 'deterministic' } | { kind: 'openai'; base_url: string; model: string; api_key_env?: string; timeout_s: number };

/** One README instance of the data set, with what the workflow needs to find it and its repository. */
export interface ReadmeInstanceSpec {
  /** The instance's folder name (its id in the data set). */
  name: string;
  repoFolder: string;
  /** `owner/name` at the pinned revision, from repo_info.jsonl; null where the data set does not pin it. */
  repository: string | null;
  /** Where the repository's files come from at the pinned revision; null: none (Pass@1 is skipped). */
  source: RepoSource | null;
}

/** What a README study hands every one of its instances unchanged. */
interface ReadmeRunSettings {
  /** The data set's folder (Enconda-bench/, repo_info.jsonl), on the workers' machines. */
  dataDir: string;
  judge: JudgeSpec;
  pass: { run: boolean; timeoutS: number };
  /** An answering agent's time limit (a cli agent's own timeout_s applies where it is lower). */
  agentTimeoutS: number;
  memoryMb: number;
  cpus: number;
  /** Every container's sandbox limits (src/domain/sandboxLimits.ts); absent in studies started before they were carried. */
  limits?: SandboxLimits;
}

export interface ReadmeStudyInput extends ReadmeRunSettings {
  name: string;
  protocol: 'readme';
  agents: ReadmeAgentSpec[];
  instances: ReadmeInstanceSpec[];
  trials: number;
  concurrency: number;
}

export interface ReadmeInstanceInput extends ReadmeRunSettings {
  instanceId: string;
  study: string;
  agent: ReadmeAgentSpec;
  instance: ReadmeInstanceSpec;
  trial: number;
}

export function readmeInstanceId(study: string, agent: string, instance: string, trial: number): string {
  return `${study}/${agent}/${instance}/${trial}`;
}

export function expandReadmeStudy(s: ReadmeStudyInput): ReadmeInstanceInput[] {
  const out: ReadmeInstanceInput[] = [];
  for (const agent of s.agents)
    for (const instance of s.instances)
      for (let trial = 1; trial <= s.trials; trial++)
        out.push({ instanceId: readmeInstanceId(s.name, agent.name, instance.name, trial), study: s.name, dataDir: s.dataDir, agent, instance, trial, judge: s.judge, pass: s.pass, agentTimeoutS: s.agentTimeoutS, memoryMb: s.memoryMb, cpus: s.cpus, ...(s.limits ? { limits: s.limits } : {}) });
  return out;
}
