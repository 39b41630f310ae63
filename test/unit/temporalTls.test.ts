import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { temporalTls, temporalTlsSettings } from '../../src/infra/temporalTls';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-tls-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

test('no TLS variable: plain gRPC (no tls option)', () => {
  expect(temporalTlsSettings({})).toBeUndefined();
  expect(temporalTls(undefined)).toBeUndefined();
});

test('the CA, the client pair and the server name, read from the files the variables name', () => {
  const env = { TEMPORAL_TLS_CA: file('ca.pem', 'CA'), TEMPORAL_TLS_CERT: file('c.pem', 'CERT'), TEMPORAL_TLS_KEY: file('c.key', 'KEY'), TEMPORAL_TLS_SERVER_NAME: 'temporal.lab' };
  const tls = temporalTls(temporalTlsSettings(env));
  expect(tls).toEqual({ serverNameOverride: 'temporal.lab', serverRootCACertificate: Buffer.from('CA'), clientCertPair: { crt: Buffer.from('CERT'), key: Buffer.from('KEY') } });
});

test('a server name alone turns TLS on with the system CAs', () => {
  expect(temporalTls(temporalTlsSettings({ TEMPORAL_TLS_SERVER_NAME: 'x' }))).toEqual({ serverNameOverride: 'x' });
});

test('a certificate without its key, or a file that cannot be read, is an error naming the variable', () => {
  expect(() => temporalTls(temporalTlsSettings({ TEMPORAL_TLS_CERT: file('only.pem', 'C') }))).toThrow('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together');
  expect(() => temporalTls(temporalTlsSettings({ TEMPORAL_TLS_CA: path.join(dir, 'missing.pem') }))).toThrow(/^TEMPORAL_TLS_CA=.*missing\.pem: cannot read it/);
});
