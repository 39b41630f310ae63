import { z } from 'zod';
import { describeIssues } from '../text/zodIssues';
import { parseToml } from './harborToml';

/**
 * The fields of a Harbor task.toml that envgap reads (Harbor's TaskConfig, schema 1.x: [task],
 * [metadata], [verifier], [agent], [environment], [[steps]]); other fields are kept by Harbor and
 * ignored here. The legacy `version` key, `memory = "4G"` and `storage` are read as Harbor reads them.
 */
const Size = z.string().regex(/^\s*\d+(\.\d+)?\s*[GMKgmk]\s*$/, 'a size such as "4G" or "512M"');

const Environment = z.looseObject({
  build_timeout_sec: z.number().positive().optional(),
  docker_image: z.string().min(1).optional(),
  os: z.string().optional(),
  cpus: z.number().positive().optional(),
  memory_mb: z.number().int().positive().optional(),
  memory: Size.optional(),
  storage_mb: z.number().int().positive().optional(),
  storage: Size.optional(),
  gpus: z.number().int().min(0).optional(),
  workdir: z.string().min(1).optional(),
  allow_internet: z.boolean().optional(),
  network_mode: z.string().optional(),
});

const TaskToml = z.looseObject({
  schema_version: z.string().optional(),
  version: z.string().optional(),
  task: z.looseObject({ name: z.string().min(1), description: z.string().optional() }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  verifier: z.looseObject({ timeout_sec: z.number().positive().optional(), env: z.record(z.string(), z.string()).optional(), user: z.union([z.string(), z.number()]).optional() }).optional(),
  agent: z.looseObject({ timeout_sec: z.number().positive().optional() }).optional(),
  environment: Environment.optional(),
  steps: z.array(z.unknown()).optional(),
});

export interface HarborTaskConfig {
  schemaVersion: string;
  /** [task].name ("org/name"), where the task is a package. */
  name: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  verifierTimeoutS: number;
  verifierEnv: Record<string, string>;
  agentTimeoutS: number | null;
  buildTimeoutS: number;
  dockerImage: string | null;
  os: string;
  cpus: number | null;
  memoryMb: number | null;
  storageMb: number | null;
  gpus: number;
  workdir: string | null;
  /** A multi-step task ([[steps]]): envgap has no protocol for it. */
  steps: number;
}

/** Harbor's defaults (TaskConfig 1.4): the verifier 600 s, the build 600 s. */
export const HARBOR_VERIFIER_TIMEOUT_S = 600;
export const HARBOR_BUILD_TIMEOUT_S = 600;

function sizeMb(size: string | undefined): number | null {
  if (size === undefined) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([GMKgmk])\s*$/.exec(size)!;
  const n = Number(m[1]);
  const unit = m[2]!.toUpperCase();
  return Math.floor(unit === 'G' ? n * 1024 : unit === 'M' ? n : n / 1024);
}

/** Parses task.toml's text; a problem names the file and the field. */
export function parseHarborTaskConfig(text: string, file: string): HarborTaskConfig {
  const parsed = TaskToml.safeParse(parseToml(text, file));
  if (!parsed.success) throw new Error(`${file}: not a Harbor task.toml: ${describeIssues(parsed.error).join('; ')}`);
  const t = parsed.data;
  const env = t.environment ?? {};
  return {
    schemaVersion: t.schema_version ?? t.version ?? '1.4',
    name: t.task?.name ?? null,
    description: t.task?.description ?? null,
    metadata: t.metadata ?? {},
    verifierTimeoutS: t.verifier?.timeout_sec ?? HARBOR_VERIFIER_TIMEOUT_S,
    verifierEnv: t.verifier?.env ?? {},
    agentTimeoutS: t.agent?.timeout_sec ?? null,
    buildTimeoutS: env.build_timeout_sec ?? HARBOR_BUILD_TIMEOUT_S,
    dockerImage: env.docker_image ?? null,
    os: (env.os ?? 'linux').toLowerCase(),
    cpus: env.cpus ?? null,
    memoryMb: env.memory_mb ?? sizeMb(env.memory),
    storageMb: env.storage_mb ?? sizeMb(env.storage),
    gpus: env.gpus ?? 0,
    workdir: env.workdir ?? null,
    steps: t.steps?.length ?? 0,
  };
}
