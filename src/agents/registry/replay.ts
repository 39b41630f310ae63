import { ReplaySpec } from '../../domain/agentSpec';
import { readEncondaPredictions, type EncondaPrediction } from '../../readme/enconda';
import { ReplayAgent } from '../replay';
import { AgentInputError } from '../types';
import { NOTHING_SPENT, type AgentKind, type ReadmeReply } from './types';

/** Recorded README answers are read once per folder and worker: a recording does not change during a study. */
const readmeRecordings = new Map<string, Map<string, EncondaPrediction>>();

/**
 * `replay`: plays back a recording. Gen/Repair: <path>/<language>/<task>/<trial>/<iteration>/. README:
 * EnConda's output layout, an instance without a recorded answer being the agent's failure. Readiness:
 * a recorded session's steps (session.jsonl), each its own activity.
 */
export const replay: AgentKind<ReplaySpec> = {
  kind: 'replay',
  spec: ReplaySpec,
  protocols: {
    gap: { create: (spec) => new ReplayAgent(spec) },
    readme: {
      activity: 'replayAnswer',
      setupScript: true,
      async answer(spec, request): Promise<ReadmeReply> {
        let all = readmeRecordings.get(spec.path);
        if (!all) {
          try {
            all = readEncondaPredictions(spec.path);
          } catch (err) {
            throw new AgentInputError(`replay agent: ${(err as Error).message}`);
          }
          readmeRecordings.set(spec.path, all);
        }
        const name = request.instance?.name ?? '';
        const p = all.get(name);
        if (!p) return { kind: 'none', status: 'failed', problem: `no recorded answer for ${name} in ${spec.path}`, log: null, spent: NOTHING_SPENT };
        return { kind: 'answer', answer: { detected_errors: p.detected_errors, setup_script: p.setup_script }, stored: p, spent: NOTHING_SPENT };
      },
    },
    readiness: { session: 'recorded-steps' },
  },
};
