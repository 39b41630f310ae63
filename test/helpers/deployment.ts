import { Client, Connection } from '@temporalio/client';
import { openDatabase, type Db } from '../../src/db/connect';

/** A deployment as its `up` printed it (`export TEMPORAL_ADDRESS=…`, `export DATABASE_URL=…`), connected to. */
export interface Deployment {
  printed: Record<string, string>;
  connection: Connection;
  client: Client;
  db: Db;
  close(): Promise<void>;
}

export async function connectToDeployment(upOutput: string, stateDir: string): Promise<Deployment> {
  const printed = Object.fromEntries([...upOutput.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  const connection = await Connection.connect({ address: printed.TEMPORAL_ADDRESS! });
  const db = await openDatabase({ url: printed.DATABASE_URL!, stateDir });
  return {
    printed,
    connection,
    client: new Client({ connection }),
    db,
    async close() {
      await db.destroy();
      await connection.close();
    },
  };
}
