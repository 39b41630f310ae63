import { attribute, type FinishedCall } from '../../../../src/agents/confined/attribution';

const base: FinishedCall = { exitCode: 0, timedOut: false, timeoutS: 60, calls: [{ status: 200, problem: null }], reported: null, agent: 'Claude Code agent "claude"' };
const ok = (status: number) => ({ status, problem: null });

describe('who a finished agent call belongs to', () => {
  it('an agent that ran to its end with the endpoint answering is ok', () => {
    expect(attribute(base)).toEqual({ kind: 'ok' });
  });

  it('a non-zero exit with the endpoint answering is the agent crashing', () => {
    const a = attribute({ ...base, exitCode: 2 });
    expect(a).toMatchObject({ kind: 'agent', errorClass: 'AgentCrash' });
    expect(a.kind === 'agent' && a.message).toContain('exited 2');
  });

  it('a kill by signal is a crash too', () => {
    expect(attribute({ ...base, exitCode: null })).toMatchObject({ kind: 'agent', errorClass: 'AgentCrash' });
  });

  it('running past the limit while no model call is pending is the agent timing out', () => {
    expect(attribute({ ...base, exitCode: 124, timedOut: true })).toMatchObject({ kind: 'agent', errorClass: 'AgentTimeout' });
  });

  it('a model call still unanswered at the limit is the endpoint, not retried', () => {
    expect(attribute({ ...base, timedOut: true, calls: [ok(200), { status: null, problem: null }] })).toMatchObject({ kind: 'endpoint', fault: 'unresponsive' });
  });

  it.each([401, 403])('an endpoint refusing the key (%i) is a configuration error, whatever the exit', (status) => {
    expect(attribute({ ...base, exitCode: 0, calls: [ok(200), ok(status), ok(200)] })).toMatchObject({ kind: 'endpoint', fault: 'auth' });
    expect(attribute({ ...base, exitCode: 1, calls: [ok(status)] })).toMatchObject({ kind: 'endpoint', fault: 'auth' });
  });

  it.each([429, 500, 503, 529])('a session that ended on a %i is the endpoint being unavailable', (status) => {
    const a = attribute({ ...base, exitCode: 1, calls: [ok(200), ok(status), ok(status)] });
    expect(a).toMatchObject({ kind: 'endpoint', fault: 'unavailable' });
    expect(a.kind === 'endpoint' && a.message).toContain('2 of 3 calls failed');
  });

  it('an exit 0 whose last model call failed is still the endpoint (a CLI that swallows errors)', () => {
    expect(attribute({ ...base, exitCode: 0, calls: [ok(500)] })).toMatchObject({ kind: 'endpoint', fault: 'unavailable' });
  });

  it('an unreachable endpoint is unavailable', () => {
    expect(attribute({ ...base, exitCode: 1, calls: [{ status: null, problem: 'http://127.0.0.1:9: ECONNREFUSED' }] })).toMatchObject({ kind: 'endpoint', fault: 'unavailable' });
  });

  it('a 429 the agent retried past is not the endpoint: the agent crashing after it is its own', () => {
    expect(attribute({ ...base, exitCode: 1, calls: [ok(429), ok(200)] })).toMatchObject({ kind: 'agent', errorClass: 'AgentCrash' });
  });

  it('a failure the agent reports of itself keeps its class', () => {
    expect(attribute({ ...base, exitCode: 1, reported: 'AgentContext' })).toMatchObject({ kind: 'agent', errorClass: 'AgentContext' });
    expect(attribute({ ...base, exitCode: 0, reported: 'AgentRefused' })).toMatchObject({ kind: 'agent', errorClass: 'AgentRefused' });
  });

  it('an agent that never called its model and exited 0 is ok (the project decides)', () => {
    expect(attribute({ ...base, calls: [] })).toEqual({ kind: 'ok' });
  });
});
