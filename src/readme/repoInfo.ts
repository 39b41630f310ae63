import * as fs from 'node:fs';
import * as path from 'node:path';

export interface PinnedRepository {
  /** `owner/name`. */
  repository: string;
  revision: string;
}

/**
 * The data set's repo_info.jsonl, keyed as its folders name a repository: `error_gen_<owner>_<name>`
 * holds `owner/name` with the slash as an underscore. An exact key, not a guess from underscores
 * (upstream's archive lookup turns every `_` into `__`, which misses names with underscores).
 */
export function readPinnedRepositories(dataDir: string): Map<string, PinnedRepository> {
  const file = path.join(dataDir, 'repo_info.jsonl');
  const out = new Map<string, PinnedRepository>();
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let row: { repository?: unknown; revision?: unknown };
    try {
      row = JSON.parse(line);
    } catch (err) {
      throw new Error(`${file}: line ${i + 1} is not JSON: ${(err as Error).message}`);
    }
    if (typeof row.repository !== 'string' || !row.repository.includes('/')) throw new Error(`${file}: line ${i + 1}: field repository must be "owner/name"`);
    if (typeof row.revision !== 'string' || !/^[0-9a-f]{7,40}$/.test(row.revision)) throw new Error(`${file}: line ${i + 1}: field revision must be a commit hash`);
    out.set(row.repository.replace('/', '_'), { repository: row.repository, revision: row.revision });
  });
  return out;
}

/** The archive of a repository at its pinned revision in a folder of `<owner>__<name>.tar.gz` (the data set's `repos/`). */
export function archiveName(repository: string): string {
  return `${repository.replace('/', '__')}.tar.gz`;
}
