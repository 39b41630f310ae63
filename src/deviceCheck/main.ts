/**
 * The device check (scripts/gpu-check.sh): on a GPU machine, every layer the readiness protocol's GPU
 * stages stand on, each asserted, through envgap's own sandbox and probe activity (no Temporal, no
 * Postgres: the probes' outputs go to an embedded PGlite). `--cpu` runs the same stages on a machine
 * without a GPU, the GPU ones skipped. Prints a verdict table; exits 1 when an asserted stage failed.
 *   node <build>/src/deviceCheck/main.js [--cpu] [--shm-mb N] [--torch REQUIREMENT] [--timeout-s N]
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { shell } from '../activities/readiness/containers';
import { createProbeActivities, type GenericProbeInput, type GenericProbeResult } from '../activities/readiness/probes';
import { repoSandboxSpec, sandboxDeps } from '../activities/readiness/sandboxes';
import { BlobStore } from '../db/blobs';
import { migrateToLatest, openDatabase } from '../db/connect';
import type { SandboxLimits } from '../domain/sandboxLimits';
import { connectDocker } from '../infra/docker';
import { loadSettings } from '../infra/settings';
import { Sandbox } from '../sandbox';
import { deviceCheckLimits, parseDeviceCheckArgs, type DeviceCheckOptions } from './options';
import { containerGpusRow, exitCodeOf, failed, formatTable, hostGpusRow, passed, probeRow, shmRow, skippedRow, type CheckRow } from './rows';
import { ensureTorchImage, TORCH_PYTHON } from './torchImage';

const run = promisify(execFile);
const say = (line: string) => process.stderr.write(`[device-check] ${line}\n`);
const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

async function main(o: DeviceCheckOptions): Promise<number> {
  const docker = connectDocker();
  const settings = loadSettings();
  const limits = deviceCheckLimits({ cpus: os.cpus().length, memoryMb: Math.floor(os.totalmem() / 2 ** 20) }, o.shmMb);
  const instanceId = `device-check/${os.hostname()}/${process.pid}`;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-device-check-'));
  const rows: CheckRow[] = [];
  const note = (row: CheckRow) => {
    rows.push(row);
    say(`${row.stage}: ${row.verdict} ${row.detail}`);
  };

  let hostCount = 0;
  if (o.cpu) note(skippedRow('nvidia-smi', 'no GPU (--cpu)'));
  else {
    const host = hostGpusRow(await run('nvidia-smi', ['--query-gpu=index,name,driver_version,memory.total', '--format=csv,noheader'], { timeout: 30_000 }).then((r) => r.stdout, asError));
    hostCount = host.count;
    note(host.row);
  }

  let image: string | null = null;
  try {
    image = await ensureTorchImage(docker, settings, o.torch, (line) => say(`[image] ${line}`));
    note(passed('environment', `${image}: ${o.torch} in ${TORCH_PYTHON}`));
  } catch (err) {
    note(failed('environment', `the readiness image with ${o.torch} could not be built: ${asError(err).message.split('\n')[0]}`));
  }
  if (!image) {
    for (const stage of ['container GPUs', '/dev/shm', 'C3 generic', 'C4 generic']) note(skippedRow(stage, 'no environment to run in'));
    return finish(rows, outDir);
  }

  /** `command` in a fresh sandbox of the probes' kind (with every GPU where `gpus`), its output or why it failed. */
  const inSandbox = async (role: string, gpus: boolean, command: string): Promise<string | Error> => {
    try {
      const sandbox = await Sandbox.open(sandboxDeps({ docker, settings, log: say }), repoSandboxSpec({ owner: { instanceId, protocol: 'readiness', role, attempt: 1 }, image: image!, limits, gpus }));
      try {
        const r = await shell(sandbox, command, 120);
        return r.exitCode === 0 ? r.output : new Error(`${command} exited ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}: ${r.output.trim().slice(0, 300)}`);
      } finally {
        await sandbox.close().catch(() => undefined);
      }
    } catch (err) {
      return asError(err);
    }
  };
  note(o.cpu ? skippedRow('container GPUs', 'no GPU (--cpu)') : containerGpusRow(await inSandbox('gpus', true, 'nvidia-smi -L'), hostCount));
  note(shmRow(await inSandbox('shm', false, 'df -k --output=size /dev/shm'), limits.shm_mb));

  const db = await openDatabase({ url: `pglite://${path.join(outDir, 'db')}`, stateDir: outDir });
  try {
    await migrateToLatest(db);
    const blobs = new BlobStore(db);
    const probes = createProbeActivities({ docker, blobs, settings, log: say });
    const env = new MockActivityEnvironment();
    const probe = async (stage: string, input: Omit<GenericProbeInput, keyof ProbeBase>) => {
      try {
        const r = (await env.run(probes.probeGeneric, { ...probeBase(instanceId, image!, limits, o.timeoutS), ...input })) as GenericProbeResult;
        fs.writeFileSync(path.join(outDir, `${input.stage}.log`), await blobs.getText(r.outputHash));
        return probeRow(stage, r);
      } catch (err) {
        return failed(stage, `the probe did not run: ${asError(err).message.split('\n')[0]}`);
      }
    };
    note(await probe('C3 generic', { stage: 'c3', python: TORCH_PYTHON, gpus: !o.cpu }));
    // On GPUs: one rank per GPU over NCCL, skipped by the probe itself with fewer than 2.
    note(await probe('C4 generic', o.cpu ? { stage: 'c4', python: TORCH_PYTHON, gpus: false, backend: 'gloo', nproc: 2 } : { stage: 'c4', python: TORCH_PYTHON, gpus: true, backend: 'nccl' }));
  } finally {
    await db.destroy();
    fs.rmSync(path.join(outDir, 'db'), { recursive: true, force: true });
  }
  return finish(rows, outDir);
}

type ProbeBase = ReturnType<typeof probeBase>;
const probeBase = (instanceId: string, frozenImage: string, limits: SandboxLimits, timeoutS: number) => ({ instanceId, frozenImage, memoryMb: limits.memory_mb, cpus: limits.cpus, limits, timeoutS });

function finish(rows: CheckRow[], outDir: string): number {
  process.stdout.write(`\n${formatTable(rows)}`);
  process.stdout.write(`probe outputs: ${outDir}\n`);
  return exitCodeOf(rows);
}

let options: DeviceCheckOptions;
try {
  options = parseDeviceCheckArgs(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
main(options).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`device check: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
