import { RELAY_PORT, relayPlan } from '../../../../src/agents/confined/relayPlan';

describe('how an agent reaches its model endpoint from the sandbox', () => {
  it('an endpoint on the worker host keeps its port and path: the agent sees the study base_url', () => {
    expect(relayPlan('http://127.0.0.1:4000/v1')).toEqual({ upstream: 'http://127.0.0.1:4000/v1', port: 4000, inside: 'http://127.0.0.1:4000/v1' });
    expect(relayPlan('http://localhost:8080')).toMatchObject({ port: 8080, inside: 'http://127.0.0.1:8080' });
  });

  it('a remote endpoint is served on the relay port over plain http, the path kept', () => {
    expect(relayPlan('https://api.openai.com/v1/')).toEqual({ upstream: 'https://api.openai.com/v1/', port: RELAY_PORT, inside: `http://127.0.0.1:${RELAY_PORT}/v1` });
    expect(relayPlan('https://api.anthropic.com')).toMatchObject({ inside: `http://127.0.0.1:${RELAY_PORT}` });
  });

  it('a local endpoint without a port takes the scheme default', () => {
    expect(relayPlan('http://localhost/v1').port).toBe(80);
  });
});
