import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stopPrivatePostgres } from '../infra/postgres';
import { privatePostgresLayout } from '../infra/postgresLayout';
import { loadSettings, type Settings } from '../infra/settings';

/** Runs a benchmark's main and exits with its outcome (0, or 1 after printing the error). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/**
 * Settings with a fresh state folder of the benchmark's own, and what removes it afterwards: its
 * private Postgres server stopped (it would outlive the benchmark), the folder deleted (and its cluster, wherever it lives).
 */
export function throwAwayState(prefix: string): { settings: Settings; remove: () => Promise<void> } {
  const settings = { ...loadSettings(), stateDir: fs.mkdtempSync(path.join(os.tmpdir(), prefix)) };
  return {
    settings,
    remove: async () => {
      if (!settings.databaseUrl) {
        // The cluster may live outside the folder (where the server's user cannot enter it).
        const { dataDir } = privatePostgresLayout(settings.stateDir);
        await stopPrivatePostgres(settings.stateDir);
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
      fs.rmSync(settings.stateDir, { recursive: true, force: true });
    },
  };
}
