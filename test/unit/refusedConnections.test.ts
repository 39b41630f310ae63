import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRefusedConnections } from '../../src/ecosystems/refusedConnections';

// Real traces (`strace -f -qq --seccomp-bpf -e trace=open,openat,execve,chdir,connect,getsockopt`) of
// clients with no server to reach: test/fixtures/outputs/README.md says how each was made.
const trace = (name: string) => fs.readFileSync(path.join(__dirname, '../fixtures/outputs', name, 'run.trace'), 'utf8');

describe('parseRefusedConnections', () => {
  it('Node.js (ioredis): non-blocking connects whose SO_ERROR read ECONNREFUSED', () => {
    expect(parseRefusedConnections(trace('node-ioredis-timeout'))).toEqual([{ address: '127.0.0.1', port: 6379, count: 15 }]);
  });

  it('Python (pymongo, silent): the same through a socket with a timeout; Unix sockets and keep-alive options left out', () => {
    expect(parseRefusedConnections(trace('python-pymongo-timeout'))).toEqual([{ address: '127.0.0.1', port: 27017, count: 10 }]);
  });

  it('Java: IPv4-mapped IPv6 addresses, non-blocking with a timeout and blocking (ECONNREFUSED from connect itself)', () => {
    expect(parseRefusedConnections(trace('java-socket-refused'))).toEqual([
      { address: '127.0.0.1', port: 27017, count: 3 },
      { address: '127.0.0.1', port: 5432, count: 1 },
    ]);
  });

  it('joins an interrupted call to its resumption, and counts no connection that succeeded or is still in progress', () => {
    const lines = [
      '301  connect(7, {sa_family=AF_INET, sin_port=htons(5432), sin_addr=inet_addr("10.0.0.5")}, 16 <unfinished ...>',
      '302  openat(AT_FDCWD, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 4',
      '301  <... connect resumed>) = -1 ECONNREFUSED (Connection refused)',
      '303  connect(8, {sa_family=AF_INET, sin_port=htons(6379), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
      '303  connect(9, {sa_family=AF_INET6, sin6_port=htons(3306), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 EINPROGRESS (Operation now in progress)',
      '303  getsockopt(9, SOL_SOCKET, SO_ERROR, [0], [4]) = 0',
      '303  connect(10, {sa_family=AF_INET6, sin6_port=htons(3306), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 EINPROGRESS (Operation now in progress)',
      '303  getsockopt(10, SOL_SOCKET, SO_ERROR, [111], [4]) = 0',
    ];
    expect(parseRefusedConnections(lines.join('\n'))).toEqual([
      { address: '10.0.0.5', port: 5432, count: 1 },
      { address: '::1', port: 3306, count: 1 },
    ]);
    expect(parseRefusedConnections('')).toEqual([]);
  });
});
