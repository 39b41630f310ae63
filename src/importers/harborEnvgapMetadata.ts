import { z } from 'zod';
import { SUPPORTS, type Support } from '../domain/readiness';

/**
 * What `envgap export harbor` keeps of a readiness repository in the task's `[metadata.envgap]`
 * (Harbor keeps [metadata] as it is), so that `envgap import harbor` of the task, or of a job run on
 * it, gives back the repository as it was: its id, supports, entries, stage limit, prepare command
 * and hidden scripts (a folder under tests/).
 */
export interface EnvgapTaskMetadata {
  protocol: 'readiness';
  id: string;
  supports: Support[];
  entry: Partial<Record<Support, string>>;
  stageTimeoutS: number;
  /** The scripts folder, relative to tests/. */
  scripts?: string;
  prepare?: string;
}

const Metadata = z.looseObject({
  protocol: z.literal('readiness'),
  repo: z.string().min(1),
  supports: z.array(z.enum(SUPPORTS)),
  entry: z.partialRecord(z.enum(SUPPORTS), z.string().min(1)).default({}),
  stage_timeout_s: z.number().int().min(1),
  scripts: z.string().min(1).optional(),
  prepare: z.string().min(1).optional(),
});

/** The repository kept in a task's [metadata], or null where the task was not exported by envgap. */
export function envgapMetadata(metadata: Record<string, unknown>): EnvgapTaskMetadata | null {
  if (metadata.envgap === undefined) return null;
  const parsed = Metadata.safeParse(metadata.envgap);
  if (!parsed.success) throw new Error(`[metadata.envgap] is not what envgap export harbor writes: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const m = parsed.data;
  return { protocol: 'readiness', id: m.repo, supports: m.supports, entry: m.entry, stageTimeoutS: m.stage_timeout_s, ...(m.scripts ? { scripts: m.scripts } : {}), ...(m.prepare ? { prepare: m.prepare } : {}) };
}

/** A [metadata.envgap] table as TOML writes it: strings, numbers, lists of strings, the entries' table. */
export interface EnvgapMetadataTable {
  [key: string]: string | number | string[] | { [key: string]: string | undefined } | undefined;
}

/** The same as a [metadata.envgap] table (the export writes it into task.toml). */
export function envgapMetadataTable(m: EnvgapTaskMetadata): EnvgapMetadataTable {
  return {
    protocol: m.protocol,
    repo: m.id,
    supports: [...m.supports],
    stage_timeout_s: m.stageTimeoutS,
    ...(m.scripts ? { scripts: m.scripts } : {}),
    ...(m.prepare ? { prepare: m.prepare } : {}),
    entry: { ...m.entry },
  };
}
