import { z } from 'zod';
import { BREAK_KINDS, type ConfirmationDetail as Detail } from './detail';

/** The record's confirmation fields as zod schemas (src/domain/instance.ts); the types are in types.ts, which the workflows import. */
export const Verdict = z.enum(['unneeded', 'needed']);

const Broke = z.object({ how: z.enum(BREAK_KINDS), excerpt: z.string() });
const NamesDetail = z.object({ broke: z.record(z.string(), Broke), untried: z.array(z.string()), together: z.array(z.string()).optional() });

export const ConfirmationDetail: z.ZodType<Detail> = z.object({
  baseline: z.union([z.object({ reproduced: z.literal(true) }), Broke.extend({ reproduced: z.literal(false) })]).nullable(),
  trials: z.number().int().nonnegative(),
  max_trials: z.number().int().nonnegative(),
  output_compared: z.boolean(),
  duration_ms: z.number().nonnegative(),
  phantom: NamesDetail.extend({ not_in_final_manifest: z.array(z.string()) }),
  bloat: z.union([NamesDetail, z.object({ unsupported: z.string() })]).optional(),
  error: z.string().optional(),
});
