import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { localRoot, sweepStaleDisks } from '../../src/infra/diskLimit';
import { connectDocker } from '../../src/infra/docker';

// A worker killed inside mountLayerFs leaves its staging file system mounted in its state folder; the
// next worker on that folder unmounts and removes it, but never the staging of a container that exists.
const root = localRoot();
(root ? test : test.skip)('the staging disks of containers that are gone are unmounted and removed; a live one is kept (needs root on the Docker host)', async () => {
  const docker = connectDocker();
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-stale-disks-'));
  const disks = path.join(state, 'disks');
  const gone = path.join(disks, 'f'.repeat(64));
  fs.mkdirSync(gone, { recursive: true });
  const image = path.join(state, 'disk.img');
  fs.writeFileSync(image, Buffer.alloc(0));
  fs.truncateSync(image, 16 * 1024 * 1024);
  execFileSync('mkfs.ext4', ['-q', '-F', image]);
  execFileSync('mount', ['-o', 'loop', image, gone]);
  fs.writeFileSync(path.join(disks, `${'e'.repeat(64)}.img`), '');

  const live = await docker.createContainer({ Image: (await docker.listImages()).find((i) => i.RepoTags?.some((t) => t.startsWith('envgap/base:')))!.RepoTags![0], Cmd: ['true'] });
  fs.mkdirSync(path.join(disks, live.id));
  try {
    const swept = await sweepStaleDisks(docker, state);
    expect(swept.sort()).toEqual([path.join(disks, `${'e'.repeat(64)}.img`), gone].sort());
    expect(fs.readFileSync('/proc/mounts', 'utf8')).not.toContain(gone);
    expect(fs.readdirSync(disks)).toEqual([live.id]);
  } finally {
    await live.remove({ force: true });
    // Only where the sweep failed is anything still mounted.
    if (fs.readFileSync('/proc/mounts', 'utf8').includes(gone)) execFileSync('umount', ['-l', gone]);
    fs.rmSync(state, { recursive: true, force: true });
  }
}, 60000);
