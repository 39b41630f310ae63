import { ApplicationFailure } from '@temporalio/activity';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { BlobStore } from '../../db/blobs';
import type { ReadmeInstanceRef } from '../../domain/readme';
import type { RepoSource } from '../../domain/readinessStudy';
import type { ReadmeInstanceSpec } from '../../domain/readmeStudy';
import { readGold, readReadme } from '../../readme/dataset';
import { fileStructure, readmePrompt } from '../../readme/prompt';
import { checkOut, RepoSourceError } from '../readiness/containers';

export interface PreparedReadme {
  promptHash: string;
  goldHash: string;
  gold: { errors: number; types: string[]; level: string | null };
  readmeFile: string;
}

export function refOf(instance: ReadmeInstanceSpec): ReadmeInstanceRef {
  return { name: instance.name, repoFolder: instance.repoFolder, repo: instance.repoFolder.replace(/^error_gen_/, '') };
}

/** The repository's files at its pinned revision, by path in code-point order (git's), .git left out. */
async function repositoryFiles(source: RepoSource): Promise<string[]> {
  const repo = await checkOut(source);
  try {
    const out: string[] = [];
    const walk = async (dir: string, rel: string) => {
      for (const e of await fs.readdir(dir, { withFileTypes: true })) {
        if (e.name === '.git') continue;
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(path.join(dir, e.name), r);
        else out.push(r);
      }
    };
    await walk(repo.dir, '');
    return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } finally {
    await repo.cleanup();
  }
}

export function createReadmePrepareActivities({ blobs }: { blobs: BlobStore }) {
  return {
    /**
     * An instance's gold answer (its own README.json or readme.json) and prompt: the README, and the
     * repository's files at the pinned revision. A data set that lacks the instance can never succeed.
     */
    async prepareReadmeInstance(input: { dataDir: string; instance: ReadmeInstanceSpec }): Promise<PreparedReadme> {
      const ref = refOf(input.instance);
      let gold, readme;
      try {
        gold = readGold(input.dataDir, ref);
        readme = readReadme(input.dataDir, ref);
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'DataSetError');
      }
      let files: string[] | null = null;
      if (input.instance.source) {
        try {
          files = await repositoryFiles(input.instance.source);
        } catch (err) {
          if (err instanceof RepoSourceError) throw ApplicationFailure.nonRetryable(err.message, 'RepoSourceError');
          throw err;
        }
      }
      const prompt = readmePrompt(readme.text, fileStructure(input.instance.repository, files));
      return {
        promptHash: await blobs.put(prompt),
        goldHash: await blobs.putJson(gold),
        gold: { errors: gold.errors.length, types: [...new Set(gold.errors.map((e) => e.error_type))].sort(), level: gold.level ?? null },
        readmeFile: readme.fileName,
      };
    },
  };
}
