import { MockActivityEnvironment } from '@temporalio/testing';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import type Docker from 'dockerode';
import { createExecuteActivities } from '../../src/activities/execute';
import type { ExecuteInput, ExecutionOutcome } from '../../src/activities/types';
import { BlobStore } from '../../src/db/blobs';
import { encodeBinary, fileBytes, fileContent, type ProjectFiles } from '../../src/domain/files';
import { DEFAULT_LIMITS } from '../../src/domain/study';
import { putFiles, readContainerFile } from '../../src/infra/containerFiles';
import { connectDocker, removeContainerIfExists } from '../../src/infra/docker';
import { execInContainer } from '../../src/infra/exec';
import { ensureRuntimeImage } from '../../src/infra/images';
import { loadSettings } from '../../src/infra/settings';
import { freshDatabase } from '../helpers/postgres';

// Binary project files (issue 9): kept as envgap:base64: contents and copied byte for byte into the container.
const docker = connectDocker();
const settings = loadSettings();
let image: string;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let blobs: BlobStore;
let activities: ReturnType<typeof createExecuteActivities>;

/** A real PNG of width x height RGB pixels, CRCs and all. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), randomBytes(width * 3)])));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** A .jar: a zip with a manifest and a class-like entry, made by python3's zipfile. */
function jar(): Buffer {
  const code = [
    'import io, sys, zipfile',
    'b = io.BytesIO()',
    'with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:',
    '    z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\\n")',
    '    z.writestr("a/B.class", bytes([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61]))',
    'sys.stdout.buffer.write(b.getvalue())',
  ].join('\n');
  return execFileSync('python3', ['-c', code]);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  image = await ensureRuntimeImage(docker, settings, 'python', () => undefined);
  database = await freshDatabase();
  blobs = new BlobStore(database.db);
  activities = createExecuteActivities({ db: database.db, blobs, docker, settings });
}, 300000);
afterAll(() => database?.drop());

describe('binary files in a container', () => {
  let container: Docker.Container;
  const name = `envgap-binary-files-${process.pid}`;
  beforeAll(async () => {
    await removeContainerIfExists(docker, name);
    container = await docker.createContainer({ Image: image, name, Cmd: ['sleep', '600'], NetworkDisabled: true });
    await container.start();
  }, 120000);
  afterAll(() => removeContainerIfExists(docker, name));

  test('a PNG, a jar and a font arrive byte-identical (sha256), beside text files', async () => {
    const bytes = {
      'assets/logo.png': png(7, 5),
      'lib/dep.jar': jar(),
      'fonts/x.ttf': Buffer.concat([Buffer.from([0, 1, 0, 0, 0, 4]), randomBytes(300)]),
      'main.py': Buffer.from('print("héllo")\n'),
    };
    const files: ProjectFiles = Object.fromEntries(Object.entries(bytes).map(([p, b]) => [p, fileContent(b)]));
    expect(files['main.py']).toBe('print("héllo")\n');
    expect(Object.values(files).filter((c) => c.startsWith('envgap:base64:'))).toHaveLength(3);

    await putFiles(container, '/work', files);
    const r = await execInContainer(container, ['sh', '-c', 'cd /work && sha256sum assets/logo.png lib/dep.jar fonts/x.ttf main.py'], { timeoutS: 30 });
    expect(r.exitCode).toBe(0);
    const sums = Object.fromEntries(r.output.trim().split('\n').map((l) => l.trim().split(/\s+/).reverse()));
    for (const [p, b] of Object.entries(bytes)) expect(sums[p]).toBe(sha256(b));
    for (const [p, b] of Object.entries(bytes)) expect((await readContainerFile(container, `/work/${p}`))!.equals(b)).toBe(true);

    const zip = await execInContainer(container, ['python3', '-c', 'import zipfile; print(sorted(zipfile.ZipFile("/work/lib/dep.jar").namelist()))'], { timeoutS: 30 });
    expect(zip.output).toContain("['META-INF/MANIFEST.MF', 'a/B.class']");
  }, 120000);

  test('a text file that starts with the reserved prefix arrives as its text', async () => {
    const text = 'envgap:base64:aGVsbG8=\n';
    await putFiles(container, '/work', { 'note.txt': fileContent(Buffer.from(text)) });
    expect((await readContainerFile(container, '/work/note.txt'))!.toString('utf8')).toBe(text);
  }, 60000);
});

test('executeProject: a Python program opens its bundled PNG and prints its size', async () => {
  const image = png(13, 9);
  const program = [
    'import struct',
    'with open("assets/logo.png", "rb") as f:',
    '    data = f.read()',
    'assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", data[:8]',
    'w, h = struct.unpack(">II", data[16:24])',
    'print(f"png {w}x{h} {len(data)} bytes")',
    '',
  ].join('\n');
  const files: ProjectFiles = { 'main.py': program, 'requirements.txt': '', 'assets/logo.png': encodeBinary(image) };
  expect(fileBytes(files['assets/logo.png']).equals(image)).toBe(true);
  const id = 'binary/replay/python/png/1';
  const filesHash = await blobs.putJson(files);
  await database.db.insertInto('iterations').values({ instance_id: id, iteration: 0, files_hash: filesHash, agent: null, execution: null }).execute();
  const input: ExecuteInput = { instanceId: id, iteration: 0, language: 'python', filesHash, limits: { ...DEFAULT_LIMITS, run_timeout_s: 60 } };
  const outcome = (await new MockActivityEnvironment().run(activities.executeProject, input)) as ExecutionOutcome;
  const log = await blobs.getText(outcome.artefacts.log);
  expect(log).toContain(`png 13x9 ${image.length} bytes`);
  expect(outcome.success).toBe(true);
}, 300000);
