import type Docker from 'dockerode';
import * as tar from 'tar-stream';
import { fileBytes, type ProjectFiles } from '../domain/files';
import { isNotFound } from './docker';

/** A tar of the files, each as its bytes: a binary (see domain/files.ts) is decoded, so it arrives byte for byte. */
export function packFiles(files: ProjectFiles): NodeJS.ReadableStream {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name, mode: 0o644 }, fileBytes(content));
  pack.finalize();
  return pack as unknown as NodeJS.ReadableStream;
}

/** Copies files into `dir`, which need not exist yet (the archive is unpacked at / with its path). */
export async function putFiles(container: Docker.Container, dir: string, files: ProjectFiles): Promise<void> {
  const prefix = dir.replace(/^\/+|\/+$/g, '');
  const rooted = Object.fromEntries(Object.entries(files).map(([name, content]) => [prefix ? `${prefix}/${name}` : name, content]));
  await container.putArchive(packFiles(rooted), { path: '/' });
}

/** Reads one file out of a container (null when absent), keeping at most `maxBytes`. */
export async function readContainerFile(container: Docker.Container, path: string, maxBytes = 64 * 1024 * 1024): Promise<Buffer | null> {
  let archive: NodeJS.ReadableStream;
  try {
    archive = await container.getArchive({ path });
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
  const extract = tar.extract();
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    extract.on('entry', (_header, stream, next) => {
      stream.on('data', (chunk: unknown) => {
        const c = chunk as Buffer;
        if (size < maxBytes) chunks.push(c.subarray(0, maxBytes - size));
        size += c.length;
      });
      stream.on('end', next);
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
    archive.pipe(extract);
  });
  return Buffer.concat(chunks);
}
