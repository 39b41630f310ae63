import { z } from 'zod';
import type { AgentSpec } from '../../domain/agentSpec';
import type { ReadmeAgentSpec } from '../../domain/readmeStudy';
import { kindsServing, refusal } from './index';
import type { Protocol } from './types';

/** What an agent of each protocol's study files parses to. */
export interface StudyAgentSpec {
  gap: AgentSpec;
  readiness: AgentSpec;
  readme: ReadmeAgentSpec;
}

/**
 * A study file's agent entry for `protocol`: the specs of the kinds that serve it. A kind that does not
 * (a static agent in a readiness study, a cli agent where there is no cli) is refused at its `kind`,
 * saying which protocols it serves and which kinds the study takes, before its other fields are looked at.
 */
export function studyAgentSpec<P extends Protocol>(protocol: P): z.ZodType<StudyAgentSpec[P]> {
  const specs = kindsServing(protocol).map((k) => k.protocols[protocol]?.spec ?? k.spec);
  const union = z.discriminatedUnion('kind', specs as unknown as [z.ZodObject<{ kind: z.ZodLiteral<string> }>, ...z.ZodObject<{ kind: z.ZodLiteral<string> }>[]]);
  return z
    .unknown()
    .superRefine((value, ctx) => {
      const kind = (value as { kind?: unknown } | null)?.kind;
      // Without a kind (or not an object) the union says what is missing.
      if (typeof kind !== 'string') return;
      const why = refusal(kind, protocol);
      if (why) ctx.addIssue({ code: 'custom', path: ['kind'], message: why });
    })
    .pipe(union) as unknown as z.ZodType<StudyAgentSpec[P]>;
}
