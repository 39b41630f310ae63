import * as path from 'node:path';
import { loadCatalog } from '../../../src/catalog/catalog';
import { parseReadinessStudyFile } from '../../../src/cli/readinessStudyFile';
import { parseReadmeStudyFile } from '../../../src/cli/readmeStudyFile';
import { parseStudyFile } from '../../../src/cli/studyFile';
import { listReadmeInstances } from '../../../src/readme/dataset';
import { referenceData } from '../../helpers/data';

// A kind a protocol cannot use (src/agents/registry) is refused at the agent's line in the study file,
// naming the file, the field and the line, before anything starts.

const readiness = (agent: string) => `name: r
protocol: readiness
agents:
  - kind: replay
    name: rec
    path: sessions
${agent}repos:
  - id: a
    source: { path: repos/a }
    supports: [cpu]
`;

test('a readiness study file with a static agent is refused at its kind, saying what the kind serves and what the study takes', () => {
  const file = readiness('  - kind: static\n    name: scan\n    path: corpus\n');
  expect(() => parseReadinessStudyFile(file, '/studies/r.yaml')).toThrow(
    '/studies/r.yaml is not a valid study:\n' +
      '  /studies/r.yaml:7:11: agents[1].kind: a static agent cannot take part in a readiness study: it serves the environment gap protocol only; a readiness study takes replay, cli, openai, claude-code, codex, gemini-cli, qwen-code or opencode agents',
  );
  // As a flow mapping on one line, and without its other fields: the kind is what is refused.
  expect(() => parseReadinessStudyFile(readiness('  - { kind: static, name: scan }\n'), 'r.yaml')).toThrow(/^r\.yaml is not a valid study:\n {2}r\.yaml:7:13: agents\[1\]\.kind: a static agent cannot take part in a readiness study/);
  expect(() => parseReadinessStudyFile(readiness('  - { kind: oracle, name: o }\n'), 'r.yaml')).toThrow(/r\.yaml:7:13: agents\[1\]\.kind: an oracle agent cannot take part in a readiness study: it serves the README protocol only/);
  // The kinds it serves are taken as before.
  const ok = parseReadinessStudyFile(readiness('  - { kind: cli, name: c, command: "agent {prompt_file}" }\n  - { kind: openai, name: o, base_url: "http://127.0.0.1:1/v1", model: m }\n'), '/studies/r.yaml');
  expect(ok.agents.map((a) => a.kind)).toEqual(['replay', 'cli', 'openai']);
});

describe('README study files', () => {
  const data = referenceData('data', 'enconda');
  const file = path.join('/studies', 'readme.yaml');
  const parse = (agents: string) => parseReadmeStudyFile(`name: s\nprotocol: readme\ndata: ${data}\ninstances: [jaraco_inflect_error_readme_1]\nagents:\n${agents}`, file, listReadmeInstances);

  it('refuse a kind the README protocol cannot serve at its line', () => {
    expect(() => parse('  - { kind: oracle, name: o }\n  - kind: static\n    name: scan\n    path: corpus\n')).toThrow(
      `${file}:7:11: agents[1].kind: a static agent cannot take part in a README study: it serves the environment gap protocol only; a README study takes replay, cli, openai, oracle, claude-code, codex, gemini-cli, qwen-code or opencode agents`,
    );
    expect(() => parse('  - { kind: magic, name: m }\n')).toThrow(`${file}:6:13: agents[0].kind: unknown agent kind "magic"; a README study takes replay, cli, openai, oracle, claude-code, codex, gemini-cli, qwen-code or opencode agents`);
  });

  it('take the kinds it serves, a cli agent with its README-only in_container', () => {
    const s = parse('  - { kind: oracle, name: o }\n  - { kind: cli, name: c, command: "agent {prompt_file}", in_container: true }\n  - { kind: replay, name: r, path: rec }\n');
    expect(s.agents).toEqual([
      { kind: 'oracle', name: 'o' },
      { kind: 'cli', name: 'c', command: 'agent {prompt_file}', timeout_s: 1800, env: [], run_file: true, in_container: true },
      { kind: 'replay', name: 'r', path: '/studies/rec' },
    ]);
    expect(() => parse('  - { kind: replay, name: r, path: rec, in_container: true }\n')).toThrow(/agents\[0\]: unknown key\(s\) "in_container"/);
  });
});

test('an environment gap study file with an oracle agent is refused at its line', () => {
  const text = 'name: s\nagents:\n  - { kind: replay, name: rec, path: corpus }\n  - { kind: oracle, name: o }\nlanguages: [python]\ntasks: [p_01]\n';
  expect(() => parseStudyFile(text, 's.yaml', loadCatalog())).toThrow(
    's.yaml:4:13: agents[1].kind: an oracle agent cannot take part in an environment gap study: it serves the README protocol only; an environment gap study takes replay, cli, openai, static, claude-code, codex, gemini-cli, qwen-code or opencode agents',
  );
});
