import { Client, type Connection } from '@temporalio/client';
import { loadSettings } from '../../src/infra/settings';
import { startEphemeralDevServer } from '../../src/infra/temporal';

export interface DevServer {
  address: string;
  client: Client;
  connection: Connection;
  stop(): Promise<void>;
}

/** A real Temporal dev server (the Temporal CLI), in memory, on a free port, for one test file. */
export async function startDevServer(): Promise<DevServer> {
  const server = await startEphemeralDevServer(loadSettings().temporalCli);
  return { ...server, client: new Client({ connection: server.connection }) };
}
