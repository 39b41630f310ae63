import { OracleSpec } from '../../domain/agentSpec';
import type { ReadmeAnswer } from '../../domain/readme';
import type { AgentKind, ReadmeReply } from './types';

/**
 * `oracle`: README only. It answers with the gold errors, their golden answers as fixes, and no setup
 * script: it validates the scorer end to end.
 */
export const oracle: AgentKind<OracleSpec> = {
  kind: 'oracle',
  spec: OracleSpec,
  protocols: {
    gap: null,
    readme: {
      activity: 'oracleAnswer',
      setupScript: false,
      async answer(_spec, request): Promise<ReadmeReply> {
        const gold = await request.gold();
        const answer: ReadmeAnswer = { detected_errors: gold.errors.map((e) => ({ error_type: e.error_type, error_description: e.error_description, fix_suggestion: e.golden_answer })), setup_script: null };
        return { kind: 'answer', answer, stored: answer, spent: { durationMs: 0, tokensIn: null, tokensOut: null, costUsd: null } };
      },
    },
    readiness: null,
  },
};
