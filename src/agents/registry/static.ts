import { StaticSpec } from '../../domain/agentSpec';
import { StaticAgent } from '../static';
import type { AgentKind } from './types';

/**
 * `static`: the import-scan baseline. Gen infers a manifest from a recorded project's imports, Repair
 * adds what an error names. It writes manifests only: it has no README answer and no readiness session.
 */
export const staticKind: AgentKind<StaticSpec> = {
  kind: 'static',
  spec: StaticSpec,
  protocols: {
    gap: { create: (spec) => new StaticAgent(spec) },
    readme: null,
    readiness: null,
  },
};
