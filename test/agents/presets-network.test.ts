import { startModelApi, type ModelApiDouble } from '../helpers/modelApi/server';
import { presetAgent, presetSpec, request } from './presetHarness';

// A real agent CLI in its sandbox has no network of its own: its model endpoint through envgap's model
// relay, the package indexes through envgap's package proxy, and nothing else. The agent's shell tool
// tries all three ways out; what it saw comes back to the double with the agent's next request.
let double: ModelApiDouble;

const TRY_NETWORK = [
  `python3 -c "import urllib.request as u; print('INDEX', u.urlopen('https://pypi.org/simple/six/', timeout=60).status)"`,
  `python3 -c "import urllib.request as u; u.urlopen('https://example.com/', timeout=20)" 2>&1 | grep -o 'Tunnel connection failed: 403[^)]*' | head -1`,
  `python3 -c "import socket; socket.create_connection(('1.1.1.1', 443), timeout=5)" 2>&1 | grep -o 'Network is unreachable' | head -1`,
  `printf 'print(1)\\n' > main.py`,
].join('; ');

beforeAll(async () => {
  double = await startModelApi({ conversations: [{ when: 'ENVGAP-NET', turns: [{ shell: TRY_NETWORK }, { text: 'Done.' }] }] });
});
afterAll(() => double?.close());

test('a preset agent reaches its endpoint and the package indexes, and nothing else', async () => {
  const agent = presetAgent(presetSpec('claude-code', double));
  const r = await agent.call(request('presets-network/claude/python/p_01/1', 0, 'ENVGAP-NET: try the network', null));
  expect(r.files).toEqual({ 'main.py': 'print(1)\n' });
  // What the shell tool printed reached the model with the agent's next request.
  const seen = double.received.map((q) => JSON.stringify(q.body)).join('\n');
  expect(seen).toContain('INDEX 200');
  expect(seen).toContain('Tunnel connection failed: 403');
  expect(seen).toContain('Network is unreachable');
  // The transcript says what the proxy passed and refused.
  expect(r.transcript).toContain('[envgap] network: package indexes reached: pypi.org:443');
  expect(r.transcript).toContain('refused (not package indexes): example.com:443');
}, 20 * 60_000);
