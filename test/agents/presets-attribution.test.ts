import { AgentCallFailedError, ModelEndpointError } from '../../src/agents/types';
import { startModelApi, type ModelApiDouble } from '../helpers/modelApi/server';
import { presetAgent, presetSpec, request } from './presetHarness';

// Who failed, with the real CLIs: an agent that crashes or hangs is its own failed call (one time limit
// at most), an endpoint that answers 429 or refuses the key is the endpoint's, named as such.
let double: ModelApiDouble;

beforeAll(async () => {
  double = await startModelApi({
    conversations: [
      { when: 'ENVGAP-CRASH', turns: [{ shell: 'kill -9 $PPID' }, { text: 'unreachable' }] },
      { when: 'ENVGAP-HANG', turns: [{ shell: 'tail -f /dev/null' }, { text: 'unreachable' }] },
      { when: 'ENVGAP-429', turns: [{ fail: 429 }] },
      { when: 'ENVGAP-401', turns: [{ fail: 401 }] },
    ],
  });
});
afterAll(() => double?.close());

const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

test('an agent that crashes is AgentCrash, its spend still counted', async () => {
  const err = await failure(presetAgent(presetSpec('claude-code', double)).call(request('attribution/crash/python/p_01/1', 0, 'ENVGAP-CRASH', null)));
  expect(err).toBeInstanceOf(AgentCallFailedError);
  expect(err).toMatchObject({ errorClass: 'AgentCrash' });
  expect((err as Error).message).toMatch(/Claude Code agent "claudecode" (exited 137|was killed by a signal)/);
}, 15 * 60_000);

test('an agent that hangs is AgentTimeout after its one time limit', async () => {
  const started = Date.now();
  const err = await failure(presetAgent(presetSpec('claude-code', double, { timeout_s: 20 })).call(request('attribution/hang/python/p_01/1', 0, 'ENVGAP-HANG', null)));
  const tookS = (Date.now() - started) / 1000;
  expect(err).toMatchObject({ errorClass: 'AgentTimeout' });
  expect((err as Error).message).toContain('ran past its time limit of 20 s');
  // One time limit, the container's start and removal around it: never a second try.
  expect(tookS).toBeGreaterThanOrEqual(20);
  process.stdout.write(`a hanging agent (timeout_s 20) was recorded after ${tookS.toFixed(1)} s\n`);
}, 15 * 60_000);

test('an endpoint answering 429 until the agent gives up is the endpoint being unavailable (retryable), not the agent', async () => {
  const err = await failure(presetAgent(presetSpec('codex', double)).call(request('attribution/429/python/p_01/1', 0, 'ENVGAP-429', null)));
  expect(err).toBeInstanceOf(ModelEndpointError);
  expect(err).toMatchObject({ fault: 'unavailable' });
  expect((err as Error).message).toMatch(/last model call failed \(HTTP 429; \d+ of \d+ calls failed\)/);
  expect((err as ModelEndpointError).toFailure()).toMatchObject({ type: 'ModelEndpointUnavailable', nonRetryable: false });
}, 15 * 60_000);

test('an endpoint refusing the key is a configuration error, never retried', async () => {
  const err = await failure(presetAgent(presetSpec('codex', double)).call(request('attribution/401/python/p_01/1', 0, 'ENVGAP-401', null)));
  expect(err).toMatchObject({ fault: 'auth' });
  expect((err as ModelEndpointError).toFailure()).toMatchObject({ type: 'ModelEndpointAuth', nonRetryable: true });
}, 15 * 60_000);
