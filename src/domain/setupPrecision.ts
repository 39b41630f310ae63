import { z } from 'zod';

/**
 * Setup precision (docs/readiness.md, "Setup precision"): of what the agent installed into its
 * environment, how much the repository's own commands used, traced in the frozen environment.
 */
export const SETUP_KINDS = ['python', 'apt', 'npm'] as const;
export type SetupKind = (typeof SETUP_KINDS)[number];

/** One kind of package: what the agent installed (against the session's base image), what the trace used, and their share. */
export const SetupKindResult = z.object({
  /** New in the frozen environment or at another version than in the base image, sorted. */
  installed: z.array(z.string()),
  /** Packages of this kind whose files the traced commands opened (installed by the agent or not), sorted. */
  used: z.array(z.string()),
  /** installed ∩ used, sorted. */
  installed_used: z.array(z.string()),
  /** |installed_used| / |installed|; null where nothing was installed or nothing traced. */
  precision: z.number().min(0).max(1).nullable(),
});
export type SetupKindResult = z.infer<typeof SetupKindResult>;

export const SETUP_TRACED_STAGES = ['c1', 'c2'] as const;

/** A command traced for setup precision: the probe's own command, run again under strace without GPUs. */
export const SetupTracedCommand = z.object({
  stage: z.enum(SETUP_TRACED_STAGES),
  command: z.string(),
  exit_code: z.number().int().nullable(),
  timed_out: z.boolean(),
});
export type SetupTracedCommand = z.infer<typeof SetupTracedCommand>;

/** A stage whose command was not traced, and why (its skip reason, `not_applicable`, or `needs_gpu`). */
export const SetupUntracedStage = z.object({ stage: z.enum(['c1', 'c2', 'c3', 'c4']), reason: z.string() });
export type SetupUntracedStage = z.infer<typeof SetupUntracedStage>;

export const SetupPrecision = z.object({
  /** The interpreter whose distributions were listed (the report's, else python3); null where the probe did not run. */
  python: z.string().nullable(),
  /** The image the session started from, against which `installed` is taken. */
  base_image: z.string().nullable(),
  kinds: z.object({ python: SetupKindResult, apt: SetupKindResult, npm: SetupKindResult }).nullable(),
  /** Over every kind: installed, installed and used, and their share (null where nothing installed or nothing traced). */
  installed: z.number().int().nonnegative(),
  installed_used: z.number().int().nonnegative(),
  precision: z.number().min(0).max(1).nullable(),
  traced: z.array(SetupTracedCommand),
  untraced: z.array(SetupUntracedStage),
  /** A harness fault of the measurement (the pyramid stands); never counted as the agent's precision. */
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
});
export type SetupPrecision = z.infer<typeof SetupPrecision>;

/** What the probe measures; the workflow adds what was not traced and any fault. */
export type SetupMeasurement = Omit<SetupPrecision, 'untraced' | 'error'>;
