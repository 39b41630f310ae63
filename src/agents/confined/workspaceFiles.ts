import * as tar from 'tar-stream';
import { Readable } from 'node:stream';
import { fileContent, MAX_PROJECT_BYTES, type ProjectFiles } from '../../domain/files';
import type { Sandbox } from '../../sandbox';
import { shellQuote } from '../../text/shellQuote';
import { hygieneListing, judgeWorkspace } from './workspaceHygiene';

export interface WorkspaceFiles {
  files: ProjectFiles;
  /** What was left out, and why (a virtual environment, a large file, a link), for the transcript. */
  notes: string[];
}

const ARCHIVE = '/run/envgap/project.tar';

/**
 * The project an agent left in its workspace: its regular files, without what workspaceHygiene.ts
 * says is not the project (virtual environments, caches, build outputs, large files); links are never
 * followed. Packed by tar inside the sandbox, read out as one bounded file.
 */
export async function readWorkspace(sandbox: Sandbox, workspace: string): Promise<WorkspaceFiles> {
  const ws = shellQuote(workspace);
  const listing = await sandbox.exec(['bash', '-c', `cd ${ws} && ${hygieneListing()}`], { timeoutS: 120 });
  if (listing.exitCode !== 0) throw new Error(`listing the agent's workspace failed (exit ${listing.exitCode}): ${listing.output.slice(-500)}`);
  const { exclude, notes } = judgeWorkspace(listing.output);
  const excludes = exclude.map((p) => `--exclude=${shellQuote(p)}`).join(' ');
  const packed = await sandbox.exec(['bash', '-c', `cd ${ws} && tar -cf ${ARCHIVE} --anchored ${excludes} .`], { timeoutS: 300 });
  if (packed.exitCode !== 0) throw new Error(`packing the agent's workspace failed (exit ${packed.exitCode}): ${packed.output.slice(-500)}`);
  const archive = await sandbox.readFile(ARCHIVE, MAX_PROJECT_BYTES + 16 * 1024 * 1024);
  await sandbox.exec(['rm', '-f', ARCHIVE], { timeoutS: 30 });
  return unpack(archive ?? Buffer.alloc(0), notes);
}

async function unpack(archive: Buffer, notes: string[]): Promise<WorkspaceFiles> {
  const files: ProjectFiles = {};
  let total = 0;
  const extract = tar.extract();
  await new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const name = header.name.replace(/^\.\//, '').replace(/\/$/, '');
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        if (header.type === 'file' && name) {
          const bytes = Buffer.concat(chunks);
          if (total + bytes.length > MAX_PROJECT_BYTES) notes.push(`${name}: past the project limit of ${MAX_PROJECT_BYTES / 1024 / 1024} MiB`);
          else {
            total += bytes.length;
            files[name] = fileContent(bytes);
          }
        } else if (header.type === 'symlink' || header.type === 'link') notes.push(`${name}: a link (never followed)`);
        next();
      });
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
    Readable.from(archive).pipe(extract);
  });
  return { files: Object.fromEntries(Object.keys(files).sort().map((k) => [k, files[k]!])), notes };
}
