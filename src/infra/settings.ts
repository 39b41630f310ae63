import { temporalTlsSettings, type TemporalTlsSettings } from './temporalTls';
import * as os from 'node:os';
import * as path from 'node:path';

/** Machine-level settings, read from the worker's environment (never from workflow input). */
export interface Settings {
  home: string;
  stateDir: string;
  /** DATABASE_URL: a Postgres server, or `pglite:[path]` (single-process); unset: the state folder's private server. */
  databaseUrl?: string;
  /** ENVGAP_POSTGRES_BIN: the folder of `postgres` and `initdb` for the private server (default: the newest /usr/lib/postgresql/N/bin). */
  postgresBin?: string;
  temporalAddress?: string;
  /** The TLS files of the connection to a cluster (TEMPORAL_TLS_CA, _CERT, _KEY, _SERVER_NAME); absent: plain gRPC. */
  temporalTls?: TemporalTlsSettings;
  /**
   * Worker deployment versioning (PINNED): on by default against a cluster (TEMPORAL_ADDRESS), off on the
   * embedded dev server; ENVGAP_WORKER_VERSIONING=on|off decides.
   */
  workerVersioning: boolean;
  temporalNamespace: string;
  temporalCli: string;
  caBundle: string;
  debianMirror: string;
  debianSuite: string;
  baseImage?: string;
  registryBaseImage: string;
  pipIndexUrl?: string;
  pipFindLinks?: string;
  npmRegistry?: string;
  mavenMirror?: string;
  /** `off`: containers on Docker's default bridge, unrestricted (a trusted machine without root). */
  sandboxNetwork: 'on' | 'off';
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const home = env.ENVGAP_HOME || path.join(os.homedir(), '.cache', 'envgap');
  return {
    home,
    stateDir: env.ENVGAP_STATE || path.join(home, 'state'),
    databaseUrl: env.DATABASE_URL || undefined,
    postgresBin: env.ENVGAP_POSTGRES_BIN || undefined,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalTls: temporalTlsSettings(env),
    workerVersioning: onOff('ENVGAP_WORKER_VERSIONING', env.ENVGAP_WORKER_VERSIONING) ?? Boolean(env.TEMPORAL_ADDRESS),
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalCli: env.ENVGAP_TEMPORAL_CLI || path.join(home, 'bin', 'temporal'),
    caBundle: env.ENVGAP_CA_BUNDLE || '/etc/ssl/certs/ca-certificates.crt',
    debianMirror: env.ENVGAP_DEBIAN_MIRROR || 'http://deb.debian.org/debian',
    debianSuite: env.ENVGAP_DEBIAN_SUITE || 'bookworm',
    baseImage: env.ENVGAP_BASE_IMAGE || undefined,
    registryBaseImage: env.ENVGAP_REGISTRY_BASE_IMAGE || 'debian:bookworm-slim',
    pipIndexUrl: env.ENVGAP_PIP_INDEX_URL || undefined,
    pipFindLinks: env.ENVGAP_PIP_FIND_LINKS || undefined,
    npmRegistry: env.ENVGAP_NPM_REGISTRY || undefined,
    mavenMirror: env.ENVGAP_MAVEN_MIRROR || undefined,
    sandboxNetwork: env.ENVGAP_SANDBOX_NETWORK === 'off' ? 'off' : 'on',
  };
}

function onOff(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new Error(`${name}=${value}: must be on or off`);
}
