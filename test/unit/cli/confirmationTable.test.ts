import { confirmationTable } from '../../../src/cli/confirmationTable';
import type { InstanceRecord } from '../../../src/domain/instance';
import { record } from '../metrics/records';

test('the table after envgap study confirm-phantoms: traced-only phantoms, verdicts with how needed ones broke, bloat, trials and seconds', () => {
  const confirmed: InstanceRecord = record({
    language: 'cpp', task: 'p_11', declared: ['openssl'], traced: ['crypto'],
    phantom_check: { openssl: 'needed' },
    confirmation: { baseline: { reproduced: true }, trials: 2, max_trials: 24, output_compared: true, duration_ms: 21400, phantom: { broke: { openssl: { how: 'build-failed', excerpt: 'undefined reference' } }, untried: [], not_in_final_manifest: [] }, bloat: { unsupported: 'D2 is D1' } },
  });
  const text = confirmationTable([confirmed, record({ task: 'p_02' })]);
  expect(text.split('\n')).toHaveLength(3);
  expect(text.split('\n')[2]).toMatch(/^claude\s+cpp\s+p_11\s+1\s+openssl\s+openssl needed \(build-failed\)\s+not possible\s+2\s+21\.4$/);
});
