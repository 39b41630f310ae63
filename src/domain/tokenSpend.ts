import { z } from 'zod';

/**
 * The tokens and cost an agent reported, as every record keeps them: null where it reported none
 * (never 0 for unknown). One shape for the gap protocol's usage, a readiness session and a README answer.
 */
export const TOKEN_SPEND = {
  tokens_in: z.number().nonnegative().nullable(),
  tokens_out: z.number().nonnegative().nullable(),
  cost_usd: z.number().nonnegative().nullable(),
};
