/**
 * The sandbox's end of envgap's relays, run by the agent tools' Node.js: for each `port=socket`
 * argument a TCP listener on the sandbox's own loopback, each connection piped to that host unix
 * socket (the model relay, the package proxy). Arguments: a file written once all listen, then the pairs.
 */
export const RELAY_SCRIPT = `const net = require('net');
const fs = require('fs');
const [ready, ...pairs] = process.argv.slice(2);
let waiting = pairs.length;
for (const pair of pairs) {
  const at = pair.indexOf('=');
  const port = Number(pair.slice(0, at));
  const socket = pair.slice(at + 1);
  net
    .createServer((c) => {
      const u = net.connect(socket);
      c.pipe(u);
      u.pipe(c);
      c.on('error', () => u.destroy());
      u.on('error', () => c.destroy());
    })
    .listen(port, '127.0.0.1', () => {
      waiting -= 1;
      if (waiting === 0) fs.writeFileSync(ready, '');
    });
}
`;
