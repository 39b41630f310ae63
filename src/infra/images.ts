import type Docker from 'dockerode';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tar from 'tar-stream';
import type { Language } from '../domain/instance';
import { imageExists } from './docker';
import { RUNTIME_RECIPES } from './recipes';
import type { Settings } from './settings';

export type Progress = (line: string) => void;

function shortHash(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 12);
}

function follow(docker: Docker, stream: NodeJS.ReadableStream, progress: Progress): Promise<void> {
  return new Promise((resolve, reject) => {
    const tail: string[] = [];
    docker.modem.followProgress(
      stream,
      (err: Error | null, out: { error?: string }[]) => {
        const failed = out?.find((o) => o.error);
        if (err || failed) reject(new Error(`${err?.message ?? failed!.error}\n${tail.join('\n')}`));
        else resolve();
      },
      (ev: { stream?: string; status?: string }) => {
        const line = (ev.stream ?? ev.status ?? '').trim();
        if (!line) return;
        tail.push(line);
        if (tail.length > 30) tail.shift();
        progress(line);
      },
    );
  });
}

async function tryPull(docker: Docker, ref: string, progress: Progress): Promise<boolean> {
  progress(`trying to pull ${ref}`);
  try {
    const stream = await Promise.race([
      docker.pull(ref),
      new Promise<never>((_, rej) => setTimeout(() => rej(new Error('pull timed out')), 20000)),
    ]);
    await follow(docker, stream, () => undefined);
    return true;
  } catch (err) {
    progress(`no registry answers (${(err as Error).message.split('\n')[0]}); building from Debian packages`);
    return false;
  }
}

function run(cmd: string, args: string[], progress: Progress): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let count = 0;
    let tail = '';
    const onData = (b: Buffer) => {
      for (const line of b.toString().split('\n')) {
        if (!line.trim()) continue;
        tail = (tail + line + '\n').slice(-4000);
        if (/^I: (Retrieving|Validating|Extracting|Unpacking|Configuring|Installing)/.test(line) && ++count % 20 !== 0) continue;
        progress(line.trim());
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}:\n${tail}`))));
  });
}

/**
 * Builds in progress in this process, by tag or key. A second caller joins the running build instead of
 * starting another (two debootstraps or two `docker build`s of one recipe would race on the tag).
 * A joining caller gets the build's progress lines too.
 */
const inProgress = new Map<string, { done: Promise<string>; listeners: Set<Progress> }>();

function joinOrStart(key: string, progress: Progress, start: (progress: Progress) => Promise<string>): Promise<string> {
  let build = inProgress.get(key);
  if (!build) {
    const listeners = new Set<Progress>();
    const fanOut: Progress = (line) => listeners.forEach((l) => l(line));
    build = { listeners, done: start(fanOut).finally(() => inProgress.delete(key)) };
    inProgress.set(key, build);
  } else {
    progress(`joining the build already running for ${key.split('\0')[0]}`);
  }
  const { listeners, done } = build;
  listeners.add(progress);
  return done.finally(() => listeners.delete(progress));
}

/** The base image: a registry's Debian image where one answers, else debootstrap + docker import. */
export async function ensureBaseImage(docker: Docker, s: Settings, progress: Progress): Promise<string> {
  if (s.baseImage) return s.baseImage;
  return joinOrStart(`base\0${s.debianSuite}\0${s.debianMirror}`, progress, (p) => buildBaseImage(docker, s, p));
}

async function buildBaseImage(docker: Docker, s: Settings, progress: Progress): Promise<string> {
  const tag = `envgap/base:${shortHash('debootstrap', 'minbase', s.debianSuite, s.debianMirror, 'v1')}`;
  if (await imageExists(docker, tag)) return tag;
  if (await tryPull(docker, s.registryBaseImage, progress)) {
    const [repo, version] = tag.split(':');
    await docker.getImage(s.registryBaseImage).tag({ repo, tag: version });
    return tag;
  }
  const rootfs = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-rootfs-'));
  try {
    if (!fs.existsSync('/usr/sbin/debootstrap') && !process.env.PATH?.split(':').some((d) => fs.existsSync(path.join(d, 'debootstrap')))) {
      throw new Error('no registry answers and debootstrap is not installed: apt-get install debootstrap, or set ENVGAP_BASE_IMAGE to a Debian bookworm image');
    }
    progress(`debootstrap --variant=minbase ${s.debianSuite} (a few minutes, once)`);
    await run('debootstrap', ['--variant=minbase', s.debianSuite, rootfs, s.debianMirror], progress);
    fs.writeFileSync(path.join(rootfs, 'etc/apt/sources.list'), `deb ${s.debianMirror} ${s.debianSuite} main\ndeb ${s.debianMirror} ${s.debianSuite}-updates main\n`);
    fs.rmSync(path.join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
    fs.mkdirSync(path.join(rootfs, 'var/cache/apt/archives/partial'), { recursive: true });
    progress(`docker import -> ${tag}`);
    const tarProc = spawn('tar', ['-C', rootfs, '--numeric-owner', '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [repo, version] = tag.split(':');
    const stream = await docker.importImage(tarProc.stdout as unknown as string, { repo, tag: version });
    await follow(docker, stream, progress);
  } finally {
    fs.rmSync(rootfs, { recursive: true, force: true });
  }
  return tag;
}

/** Builds `tag` from a Dockerfile and the files beside it, following the build's progress; its last lines come with a failure. */
export async function buildFromFiles(docker: Docker, tag: string, files: Record<string, Buffer | string>, labels: Record<string, string>, progress: Progress, buildargs: Record<string, string> = {}): Promise<void> {
  const stream = await docker.buildImage(buildContext(files), { t: tag, labels, buildargs, rm: true, forcerm: true });
  await follow(docker, stream, (line) => {
    if (/^(Step \d+\/\d+|Successfully)/.test(line)) progress(line.length > 160 ? line.slice(0, 160) + '…' : line);
  });
}

function buildContext(files: Record<string, Buffer | string>): NodeJS.ReadableStream {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name }, content);
  pack.finalize();
  return pack as unknown as NodeJS.ReadableStream;
}

/** One PEM certificate per entry, as update-ca-certificates and Java's keystore hook expect. */
export function splitCertificates(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)?.map((c) => c + '\n') ?? [];
}

const ready = new Map<string, string>();

/**
 * The runtime image of a language; its tag is the hash of its recipe, so a changed recipe rebuilds.
 * Once found, the tag is remembered for the life of the process (a worker restarts on a code change).
 */
export async function ensureRuntimeImage(docker: Docker, s: Settings, language: Language, progress: Progress, o: { recheck?: boolean } = {}): Promise<string> {
  return ensureRecipeImage(docker, s, language, RUNTIME_RECIPES[language], progress, o);
}

/**
 * An image of envgap's own, built from a recipe on the base image (a language's runtime image, the
 * readiness image, the tools image) and tagged `envgap/<name>:<hash of the recipe and CA bundle>`.
 * Once found, the tag is remembered for the life of the process.
 */
export async function ensureRecipeImage(docker: Docker, s: Settings, name: string, recipe: (base: string) => string, progress: Progress, o: { recheck?: boolean } = {}): Promise<string> {
  const key = `${name}\0${s.caBundle}\0${s.baseImage ?? ''}`;
  const known = ready.get(key);
  if (known && (!o.recheck || (await imageExists(docker, known)))) return known;
  const tag = await joinOrStart(key, progress, (p) => buildRecipeImage(docker, s, name, recipe, p));
  ready.set(key, tag);
  return tag;
}

async function buildRecipeImage(docker: Docker, s: Settings, name: string, recipe: (base: string) => string, progress: Progress): Promise<string> {
  const base = await ensureBaseImage(docker, s, progress);
  const ca = fs.readFileSync(s.caBundle);
  const dockerfile = recipe(base);
  const tag = `envgap/${name}:${shortHash(dockerfile, ca)}`;
  if (await imageExists(docker, tag)) return tag;
  progress(`building ${tag}`);
  const certs = splitCertificates(ca.toString('utf8'));
  if (certs.length === 0) throw new Error(`no PEM certificate in the CA bundle ${s.caBundle} (ENVGAP_CA_BUNDLE)`);
  const context: Record<string, string> = { Dockerfile: dockerfile };
  certs.forEach((pem, i) => (context[`extra-ca/extra-${String(i).padStart(3, '0')}.crt`] = pem));
  // A recipe that installs from a registry at build time (JavaScript's npm, the tools' pyright, Python's coverage.py, Java's JaCoCo) uses the configured mirrors.
  const buildargs = {
    ...(s.npmRegistry ? { npm_config_registry: s.npmRegistry } : {}),
    ...(s.pipIndexUrl ? { PIP_INDEX_URL: s.pipIndexUrl } : {}),
    ...(s.mavenMirror ? { maven_repository: s.mavenMirror } : {}),
  };
  await buildFromFiles(docker, tag, context, { 'envgap.image': name }, progress, buildargs);
  return tag;
}
