import { AgentReport } from '../../../src/domain/readiness';
import { parseAgentReport } from '../../../src/readiness/report';

// parseAgentReport checks report.json by hand (it runs in the workflow, which must not load zod); the
// zod schema AgentReport is the definition it is held to, verdict and value, case by case.
const values: Record<string, unknown[]> = {
  string: ['/usr/bin/python3', '', 'x'],
  boolean: [true, false],
  integer: [0, 2, -1],
  wrong: [1.5, 'yes', 3, true, [], {}, ['a']],
};
const KEYS = Object.keys(AgentReport.shape) as (keyof typeof AgentReport.shape)[];

function cases(): unknown[] {
  const out: unknown[] = [{}, { python_path: null, gpu_count: null }, { extra: 1, python_path: '/p' }, [], 3, 'report', null, true];
  for (const key of KEYS) {
    for (const group of Object.values(values)) for (const v of group) out.push({ [key]: v });
  }
  out.push(Object.fromEntries(KEYS.map((k) => [k, null])));
  out.push({ python_path: '/opt/venv/bin/python', python_version: '3.11.7', torch_version: '2.5.1', cuda_available: false, gpu_count: 0, ddp_expected_ok: true, env_tool: 'venv', env_name: 'venv', notes: 'cpu only' });
  return out;
}

test.each(cases().map((c) => [JSON.stringify(c), c]))('report.json %s: the same verdict and report as the zod schema', (_, value) => {
  const byZod = AgentReport.safeParse(value);
  const byHand = parseAgentReport(JSON.stringify(value));
  expect(byHand.problem === null).toBe(byZod.success);
  if (byZod.success) expect(byHand.report).toEqual(byZod.data);
  else expect(byHand.problem).toMatchObject({ category: 'invalid_json', message: expect.stringMatching(/^report\.json: field /) });
});

test('a wrong field is named with what it held', () => {
  expect(parseAgentReport('{"gpu_count": 1.5, "cuda_available": "yes"}').problem?.message).toBe(
    'report.json: field cuda_available: expected a boolean or null, received "yes"; field gpu_count: expected an integer or null, received 1.5',
  );
  expect(parseAgentReport('[]').problem?.message).toBe('report.json: field (record): expected an object, received an array');
});
