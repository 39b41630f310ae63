/**
 * The sandbox's end of the model relay, run by the agent tools' Node.js: a TCP listener on the
 * sandbox's own loopback at the port the agent's base URL names, each connection piped to the host
 * relay's unix socket. Arguments: port, socket, a file written once it listens.
 */
export const RELAY_SCRIPT = `const net = require('net');
const fs = require('fs');
const [port, socket, ready] = process.argv.slice(2);
net
  .createServer((c) => {
    const u = net.connect(socket);
    c.pipe(u);
    u.pipe(c);
    c.on('error', () => u.destroy());
    u.on('error', () => c.destroy());
  })
  .listen(Number(port), '127.0.0.1', () => fs.writeFileSync(ready, ''));
`;
