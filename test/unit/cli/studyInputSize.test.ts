import { defaultPayloadConverter } from '@temporalio/common';
import { loadCatalog } from '../../../src/catalog/catalog';
import { parseStudyFile, STUDY_CAPS } from '../../../src/cli/studyFile';
import { SPEC_CAPS } from '../../../src/domain/agentSpec';
import { LANGUAGES } from '../../../src/domain/instance';
import { expandStudy } from '../../../src/domain/study';

// Issue 8: the workflow input (the StudyInput) stays small whatever the study: the largest study the caps
// allow is built here, every string at its cap in the character that costs JSON the most bytes (control
// characters and lone surrogates, six bytes each, are refused), and its payload is measured: about
// 424 KiB with cli agents, 364 KiB with openai ones, 320 KiB with replay ones.
const catalog = loadCatalog();
const WIDE = '€'; // 3 bytes of UTF-8 for one character
const TEMPORAL_PAYLOAD_LIMIT = 2 * 1024 * 1024;
const BUDGET = 512 * 1024;

const q = (s: string) => JSON.stringify(s); // a YAML double-quoted scalar
const name = (i: number) => `a${String(i).padStart(2, '0')}${'x'.repeat(SPEC_CAPS.name - 3)}`;
const envNames = Array.from({ length: SPEC_CAPS.env }, (_, i) => `V${i}${'_'.repeat(SPEC_CAPS.envName - 2 - String(i).length)}`);
// A path of PATH_CAP characters once resolved: "/" + dir + "/" + path
const fileDir = `/${WIDE.repeat(STUDY_CAPS.resolvedPath - SPEC_CAPS.path - 2)}`;

const AGENTS: Record<string, (i: number) => string> = {
  cli: (i) =>
    `  - kind: cli\n    name: ${name(i)}\n    command: ${q(WIDE.repeat(SPEC_CAPS.command))}\n    timeout_s: ${SPEC_CAPS.timeout_s}\n    env: [${envNames.join(', ')}]`,
  openai: (i) => {
    const prefix = 'https://a.example/';
    return (
      `  - kind: openai\n    name: ${name(i)}\n    base_url: ${q(prefix + WIDE.repeat(SPEC_CAPS.base_url - prefix.length))}\n` +
      `    model: ${q(WIDE.repeat(SPEC_CAPS.model))}\n    api_key_env: ${envNames[0]}\n    temperature: 1.2345678901234567\n` +
      `    max_tokens: ${SPEC_CAPS.max_tokens}\n    timeout_s: ${SPEC_CAPS.timeout_s}`
    );
  },
  replay: (i) => `  - kind: replay\n    name: ${name(i)}\n    path: ${q(WIDE.repeat(SPEC_CAPS.path))}`,
};

function largestStudy(kind: string): string {
  const agents = Array.from({ length: STUDY_CAPS.agents }, (_, i) => AGENTS[kind]!(i)).join('\n');
  const tasks = LANGUAGES.map((l) => `  ${l}: [${catalog.tasks.map((t) => t.id).join(', ')}]`).join('\n');
  const trials = Math.floor(STUDY_CAPS.instances / (STUDY_CAPS.agents * LANGUAGES.length * catalog.tasks.length));
  const limits = Object.entries(STUDY_CAPS.limits).map(([k, v]) => `${k}: ${v}`).join(', ');
  return (
    `name: ${'n'.repeat(STUDY_CAPS.name)}\nagents:\n${agents}\nlanguages: [${LANGUAGES.join(', ')}]\ntasks:\n${tasks}\n` +
    `trials: ${trials}\nbudget: ${STUDY_CAPS.budget}\nconcurrency: ${STUDY_CAPS.concurrency}\nlimits: { ${limits} }\n`
  );
}

test.each(Object.keys(AGENTS))('the largest study of %s agents is a workflow input under 512 KiB', (kind) => {
  const text = largestStudy(kind);
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(STUDY_CAPS.fileBytes);
  const study = parseStudyFile(text, `${fileDir}/s.yaml`, catalog);
  expect(study.agents).toHaveLength(STUDY_CAPS.agents);
  if (kind === 'replay') expect((study.agents[0] as { path: string }).path).toHaveLength(STUDY_CAPS.resolvedPath);
  expect(expandStudy(study)).toHaveLength(STUDY_CAPS.instances);
  const payload = defaultPayloadConverter.toPayload([study]);
  const bytes = (payload.data?.length ?? 0) + Object.values(payload.metadata ?? {}).reduce((n, v) => n + v.length, 0);
  expect(bytes).toBe(Buffer.byteLength(JSON.stringify([study])) + 'json/plain'.length);
  expect(bytes).toBeLessThan(BUDGET);
  expect(bytes).toBeLessThan(TEMPORAL_PAYLOAD_LIMIT / 4);
});

test('one character more anywhere is refused', () => {
  const text = largestStudy('cli');
  expect(() => parseStudyFile(text.replace(`command: "${WIDE}`, `command: "${WIDE}${WIDE}`), `${fileDir}/s.yaml`, catalog)).toThrow(/command: at most 2048 characters/);
  expect(() => parseStudyFile(text.replace(/^trials: \d+/m, 'trials: 11'), `${fileDir}/s.yaml`, catalog)).toThrow(/trials: the study has 110,000 instances/);
});
