import Docker from 'dockerode';
import { PassThrough } from 'node:stream';
import * as tar from 'tar-stream';
import type { ProjectFiles } from '../domain/files';

export function connectDocker(): Docker {
  return process.env.DOCKER_HOST ? new Docker() : new Docker({ socketPath: '/var/run/docker.sock' });
}

function isNotFound(err: unknown): boolean {
  return (err as { statusCode?: number }).statusCode === 404;
}

export async function removeContainerIfExists(docker: Docker, name: string): Promise<boolean> {
  try {
    await docker.getContainer(name).remove({ force: true, v: true });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    // 409: removal already in progress (a crashed attempt's cleanup); wait for it to finish.
    if ((err as { statusCode?: number }).statusCode === 409) {
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 500));
        try {
          await docker.getContainer(name).inspect();
        } catch (e) {
          if (isNotFound(e)) return true;
        }
      }
    }
    throw err;
  }
}

export async function imageExists(docker: Docker, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect();
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

export function packFiles(files: ProjectFiles): NodeJS.ReadableStream {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name, mode: 0o644 }, content);
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

export interface ExecResult {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  durationMs: number;
}

export interface ExecOptions {
  timeoutS: number;
  workdir?: string;
  env?: string[];
  /** Called every few seconds while the command runs (activity heartbeats). */
  onTick?: () => void;
  maxOutputBytes?: number;
}

/**
 * Runs a command in a running container. The time limit is enforced inside the container with
 * coreutils `timeout`, so a command that overruns is killed there and reported as timed out.
 */
export async function execInContainer(container: Docker.Container, cmd: string[], opts: ExecOptions): Promise<ExecResult> {
  const limited = ['timeout', '-k', '5', String(opts.timeoutS), ...cmd];
  const exec = await container.exec({
    Cmd: limited,
    AttachStdout: true,
    AttachStderr: true,
    WorkingDir: opts.workdir,
    Env: opts.env,
  });
  const started = Date.now();
  const stream = await exec.start({ hijack: true, stdin: false });
  const max = opts.maxOutputBytes ?? 4 * 1024 * 1024;
  const head: Buffer[] = [];
  let headSize = 0;
  let tail = Buffer.alloc(0);
  let dropped = 0;
  const sink = new PassThrough();
  sink.on('data', (chunk: unknown) => {
    let c = chunk as Buffer;
    if (headSize < max / 2) {
      head.push(c);
      headSize += c.length;
      return;
    }
    tail = Buffer.concat([tail, c]);
    if (tail.length > max / 2) {
      dropped += tail.length - max / 2;
      tail = tail.subarray(tail.length - max / 2);
    }
  });
  container.modem.demuxStream(stream, sink, sink);
  const tick = opts.onTick ? setInterval(opts.onTick, 5000) : undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', reject);
    });
  } finally {
    if (tick) clearInterval(tick);
  }
  const durationMs = Date.now() - started;
  const info = await exec.inspect();
  const exitCode = info.ExitCode ?? null;
  const timedOut = exitCode === 124 || (exitCode === 137 && durationMs >= opts.timeoutS * 1000);
  const omitted = dropped > 0 ? `\n[... ${dropped} bytes omitted ...]\n` : '';
  const output = Buffer.concat(head).toString('utf8') + omitted + tail.toString('utf8');
  return { exitCode, output, timedOut, durationMs };
}
