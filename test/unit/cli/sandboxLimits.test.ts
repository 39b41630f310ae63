import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCatalog } from '../../../src/catalog/catalog';
import { parseReadinessStudyFile } from '../../../src/cli/readinessStudyFile';
import { parseReadmeStudyFile } from '../../../src/cli/readmeStudyFile';
import { parseStudyFile } from '../../../src/cli/studyFile';
import { listReadmeInstances } from '../../../src/readme/dataset';
import { referenceData } from '../../helpers/data';

// The sandbox's limits in every study file: the same names, bounds and defaults (memory_mb and cpus
// may default otherwise), each bad value refused naming the file, the line and the field.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-limits-'));
const file = path.join(dir, 'study.yaml');
const data = referenceData('data', 'enconda');
const catalog = loadCatalog();

const STUDIES = {
  gap: (limits: string) => parseStudyFile(`name: s\nagents:\n  - { kind: replay, name: r, path: rec }\nlanguages: [python]\ntasks: [p_01]\n${limits}`, file, catalog).limits,
  readiness: (limits: string) => parseReadinessStudyFile(`name: s\nprotocol: readiness\nagents:\n  - { kind: replay, name: r, path: rec }\nrepos:\n  - { id: a, source: { path: a }, supports: [cpu] }\n${limits}`, file).limits!,
  readme: (limits: string) => parseReadmeStudyFile(`name: s\nprotocol: readme\ndata: ${data}\ninstances: [jaraco_inflect_error_readme_1]\nagents:\n  - { kind: oracle, name: o }\n${limits}`, file, listReadmeInstances).limits!,
};

describe.each(Object.entries(STUDIES))('%s study file', (protocol, limitsOf) => {
  test('the same defaults, but a readiness session\'s memory and disk (it installs torch)', () => {
    expect(limitsOf('')).toEqual({ pids: 1024, shm_mb: protocol === 'readiness' ? 8192 : 64, cpus: 2, memory_mb: protocol === 'readiness' ? 8192 : 4096, disk_mb: protocol === 'readiness' ? 32768 : 10240, ...(protocol === 'gap' ? { install_timeout_s: 900, run_timeout_s: 120, service_grace_s: 10 } : {}) });
  });

  test("/dev/shm left out: the protocol's default within memory_mb (readiness: upstream's 16 GiB)", () => {
    const shm = (memory: number) => limitsOf(`limits:\n  memory_mb: ${memory}\n`).shm_mb;
    expect(shm(32768)).toBe(protocol === 'readiness' ? 16384 : 64);
    expect(shm(4096)).toBe(protocol === 'readiness' ? 4096 : 64);
    expect(limitsOf('limits:\n  memory_mb: 32768\n  shm_mb: 2048\n').shm_mb).toBe(2048);
  });

  test('every field is configurable', () => {
    expect(limitsOf('limits: { memory_mb: 2048, cpus: 1.5, pids: 128, disk_mb: 2048, shm_mb: 256 }\n')).toMatchObject({ memory_mb: 2048, cpus: 1.5, pids: 128, disk_mb: 2048, shm_mb: 256 });
  });

  test.each([
    ['limits: { pids: 4 }', /study\.yaml:\d+:\d+: limits\.pids: at least 16 processes/],
    ['limits: { pids: 100000 }', /study\.yaml:\d+:\d+: limits\.pids: at most 32,768 processes/],
    ['limits: { disk_mb: 100 }', /study\.yaml:\d+:\d+: limits\.disk_mb: at least 256 MiB/],
    ['limits: { disk_mb: 2000000 }', /limits\.disk_mb: at most 1,048,576 MiB/],
    ['limits: { shm_mb: 0 }', /study\.yaml:\d+:\d+: limits\.shm_mb: at least 1 MiB/],
    ['limits: { memory_mb: 1024, shm_mb: 2048 }', /study\.yaml:\d+:\d+: limits\.shm_mb: 2,?048 MiB of \/dev\/shm is more than memory_mb \(1,?024 MiB\)/],
    ['limits: { memory_mb: 200000 }', /limits\.memory_mb: at most 131,072 MiB/],
    ['limits: { cpus: 100 }', /limits\.cpus: at most 64 CPUs/],
    ['limits: { pids: "many" }', /study\.yaml:\d+:\d+: limits\.pids: /],
    ['limits: { disk: 5 }', /study\.yaml:\d+:\d+: limits: .*disk/],
  ])('%s is refused naming the file and the field', (limits, message) => {
    expect(() => limitsOf(`${limits}\n`)).toThrow(message);
  });
});
