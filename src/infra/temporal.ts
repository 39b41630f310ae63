import { freePort } from './freePort';
import { Connection } from '@temporalio/client';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Settings } from './settings';

export const DEV_SERVER_ADDRESS = '127.0.0.1:7233';
export const DEV_SERVER_UI = 'http://127.0.0.1:8233';

/**
 * Eager activities: the server hands an activity straight back to the worker that scheduled it (no
 * extra poll). The transfer queue read more often than its default 20 times a second: that default
 * held each workflow task of back-to-back instances for up to 50 ms before matching saw it (a trivial
 * workflow took 100 ms, 35 ms with this). deploy/temporal/dynamicconfig.yaml sets the same.
 */
const DEV_SERVER_TUNING = [
  ['system.enableActivityEagerExecution', 'true'],
  ['history.transferProcessorMaxPollRPS', '1000'],
].flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${value}`]);

function portAnswers(address: string, timeoutMs = 500): Promise<boolean> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface TemporalEndpoint {
  address: string;
  namespace: string;
  uiUrl: string | null;
  startedDevServer: boolean;
}

/**
 * TEMPORAL_ADDRESS when set; otherwise the local dev server (Temporal CLI, SQLite file under the
 * state folder), reused when it already answers and started detached when it does not.
 */
export async function ensureTemporal(s: Settings, log: (line: string) => void): Promise<TemporalEndpoint> {
  if (s.temporalAddress) return { address: s.temporalAddress, namespace: s.temporalNamespace, uiUrl: null, startedDevServer: false };
  const endpoint = { address: DEV_SERVER_ADDRESS, namespace: s.temporalNamespace, uiUrl: DEV_SERVER_UI };
  if (await portAnswers(DEV_SERVER_ADDRESS)) return { ...endpoint, startedDevServer: false };
  if (!fs.existsSync(s.temporalCli)) {
    throw new Error(`the Temporal CLI is not at ${s.temporalCli}; run scripts/ensure-temporal.sh or set TEMPORAL_ADDRESS`);
  }
  fs.mkdirSync(s.stateDir, { recursive: true });
  const logFile = path.join(s.stateDir, 'temporal-dev-server.log');
  const out = fs.openSync(logFile, 'a');
  log(`starting the Temporal dev server (history in ${path.join(s.stateDir, 'temporal.db')}, log ${logFile})`);
  const child = spawn(
    s.temporalCli,
    ['server', 'start-dev', '--db-filename', path.join(s.stateDir, 'temporal.db'), '--ip', '127.0.0.1', '--port', '7233', '--ui-port', '8233', '--log-level', 'warn', ...DEV_SERVER_TUNING],
    { detached: true, stdio: ['ignore', out, out] },
  );
  child.unref();
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    if (await portAnswers(DEV_SERVER_ADDRESS)) {
      const conn = await Connection.connect({ address: DEV_SERVER_ADDRESS });
      try {
        await conn.healthService.check({});
        return { ...endpoint, startedDevServer: true };
      } catch {
        // the port opens before the frontend is ready
      } finally {
        await conn.close();
      }
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the Temporal dev server did not answer within 60 s; see ${logFile}`);
}


export interface EphemeralServer {
  address: string;
  connection: Connection;
  stop(): Promise<void>;
}

/** A throw-away dev server (in memory, free port) for tests and benchmarks. */
export async function startEphemeralDevServer(temporalCli: string): Promise<EphemeralServer> {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const child = spawn(temporalCli, ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error', ...DEV_SERVER_TUNING], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60000;
  for (;;) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.healthService.check({});
      return {
        address,
        connection,
        async stop() {
          await connection.close();
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
        },
      };
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`Temporal dev server at ${address} did not start: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}
