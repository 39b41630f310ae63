import * as fs from 'node:fs';
import type { TLSConfig } from '@temporalio/client';

/** The TLS files of the connection to a Temporal cluster, by the variables that name them (deploy/README.md, "TLS to the cluster"). */
export interface TemporalTlsSettings {
  ca?: string;
  cert?: string;
  key?: string;
  serverName?: string;
}

export function temporalTlsSettings(env: NodeJS.ProcessEnv): TemporalTlsSettings | undefined {
  const s = { ca: env.TEMPORAL_TLS_CA || undefined, cert: env.TEMPORAL_TLS_CERT || undefined, key: env.TEMPORAL_TLS_KEY || undefined, serverName: env.TEMPORAL_TLS_SERVER_NAME || undefined };
  return Object.values(s).some((v) => v !== undefined) ? s : undefined;
}

const read = (variable: string, file: string): Buffer => {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new Error(`${variable}=${file}: cannot read it: ${(err as Error).message}`);
  }
};

/** The `tls` option of a Temporal connection: undefined where none is configured (plain gRPC, as the dev server speaks). */
export function temporalTls(s: TemporalTlsSettings | undefined): TLSConfig | undefined {
  if (!s) return undefined;
  if ((s.cert === undefined) !== (s.key === undefined)) throw new Error('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (a client certificate and its key, for mTLS)');
  return {
    ...(s.serverName ? { serverNameOverride: s.serverName } : {}),
    ...(s.ca ? { serverRootCACertificate: read('TEMPORAL_TLS_CA', s.ca) } : {}),
    ...(s.cert && s.key ? { clientCertPair: { crt: read('TEMPORAL_TLS_CERT', s.cert), key: read('TEMPORAL_TLS_KEY', s.key) } } : {}),
  };
}
