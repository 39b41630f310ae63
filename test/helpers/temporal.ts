import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import { Connection, Client } from '@temporalio/client';
import { loadSettings } from '../../src/infra/settings';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface DevServer {
  address: string;
  client: Client;
  connection: Connection;
  stop(): Promise<void>;
}

/** A real Temporal dev server (the Temporal CLI), in memory, on a free port, for one test file. */
export async function startDevServer(): Promise<DevServer> {
  const cli = loadSettings().temporalCli;
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const child: ChildProcess = spawn(cli, ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error'], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60000;
  let connection: Connection | undefined;
  while (!connection) {
    try {
      const c = await Connection.connect({ address, connectTimeout: 1000 });
      await c.healthService.check({});
      connection = c;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`Temporal dev server at ${address} did not start: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return {
    address,
    connection,
    client: new Client({ connection }),
    async stop() {
      await connection!.close();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
