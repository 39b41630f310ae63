import { inDockerNetns, interfacesFromIpJson } from '../../../src/infra/dockerNetns';
import { hostSubnets } from '../../../src/infra/sandboxNetwork';

test('a command runs as it is where Docker shares this network namespace, through nsenter where not', () => {
  expect(inDockerNetns('iptables', ['-S'], null)).toEqual(['iptables', ['-S']]);
  expect(inDockerNetns('iptables', ['-S'], '/proc/42/ns/net')).toEqual(['nsenter', ['--net=/proc/42/ns/net', '--', 'iptables', '-S']]);
});

test("`ip -j -4 addr` of Docker's namespace gives the host's subnets, loopback left out", () => {
  const json = JSON.stringify([
    { ifindex: 1, ifname: 'lo', addr_info: [{ family: 'inet', local: '127.0.0.1', prefixlen: 8, scope: 'host' }] },
    { ifindex: 2, ifname: 'eth0', addr_info: [{ family: 'inet', local: '192.168.7.23', prefixlen: 24, scope: 'global' }] },
    { ifindex: 3, ifname: 'docker0', addr_info: [{ family: 'inet', local: '172.17.0.1', prefixlen: 16, scope: 'global' }] },
    { ifindex: 4, ifname: 'egc17200', addr_info: [] },
  ]);
  const ifaces = interfacesFromIpJson(json);
  expect(Object.keys(ifaces)).toEqual(['lo', 'eth0', 'docker0']);
  expect(hostSubnets(ifaces)).toEqual(['172.17.0.0/16', '192.168.7.0/24']);
});
