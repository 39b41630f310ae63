import * as fs from 'node:fs';
import * as path from 'node:path';
import { timedOutRunEnvironment } from '../../src/ecosystems/timedOutRun';

const fixture = (dir: string, name: string) => fs.readFileSync(path.join(__dirname, '../fixtures/outputs', dir, name), 'utf8');
const refusals = (port: number, n: number) =>
  Array.from({ length: n }, (_, i) => `${400 + i}  connect(5, {sa_family=AF_INET, sin_port=htons(${port}), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ECONNREFUSED (Connection refused)`).join('\n');

describe('timedOutRunEnvironment: a run stopped at its time limit', () => {
  it('that printed a refused connection again and again (ioredis with an error handler, no Redis) is Environment, naming Redis', () => {
    const output = fixture('node-ioredis-timeout', 'output.txt');
    expect(output.match(/connect ECONNREFUSED 127\.0\.0\.1:6379/g)).toHaveLength(15);
    expect(timedOutRunEnvironment(output, fixture('node-ioredis-timeout', 'run.trace'))).toEqual({ rule: 'service-port', host: '127.0.0.1:6379', service: 'Redis' });
  });

  it('that printed nothing while its driver was refused (pymongo waiting out server selection) is Environment by its trace, naming MongoDB', () => {
    expect(timedOutRunEnvironment('', fixture('python-pymongo-timeout', 'run.trace'))).toEqual({ rule: 'refused-connection', host: '127.0.0.1:27017', service: 'MongoDB' });
  });

  it('names the first service refused again and again; an IPv6 address in brackets', () => {
    const v6 = Array.from({ length: 2 }, () => '9  connect(3, {sa_family=AF_INET6, sin6_port=htons(5432), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ECONNREFUSED (Connection refused)').join('\n');
    expect(timedOutRunEnvironment('working...\n', `${refusals(6379, 1)}\n${v6}`)).toEqual({ rule: 'refused-connection', host: '[::1]:5432', service: 'PostgreSQL' });
  });

  it('stays the program\'s Timeout where neither its output nor its trace says why: one refusal, a port of no known service, no trace', () => {
    expect(timedOutRunEnvironment('', refusals(6379, 1))).toBeNull();
    expect(timedOutRunEnvironment('', refusals(8080, 5))).toBeNull();
    expect(timedOutRunEnvironment('computing 1000000 primes\n', null)).toBeNull();
  });
});
