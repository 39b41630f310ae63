import * as fs from 'node:fs';
import * as path from 'node:path';
import { ReplayAgent } from '../../../src/agents/replay';
import { STATIC_MANIFESTS, StaticAgent } from '../../../src/agents/static';
import type { Language } from '../../../src/domain/instance';
import { declaredDependencies } from '../../../src/ecosystems/declared';
import { createAgent, parseAgentSpec } from '../../../src/agents';
import { AgentGaveUpError } from '../../../src/agents/types';
import { agentRequest } from './request';

const CORPUS = path.join(__dirname, '../../../corpus/quickstart');
const LANGUAGES: Language[] = ['python', 'javascript', 'java', 'cpp'];

/** What each quickstart project's code imports, read from its sources (D1 names as declaredDependencies gives them). */
const EXPECTED: Record<string, string[]> = {
  'python/p_04': ['pyyaml'],
  'python/p_13': ['click'],
  'python/p_30': ['markdown', 'pygments'],
  'python/p_43': [],
  'python/p_49': ['croniter', 'python-dateutil'],
  'javascript/p_04': ['yaml'],
  'javascript/p_30': ['entities', 'markdown-it'],
  'javascript/p_49': ['cron-parser'],
  'java/p_01': ['jackson-core', 'jackson-databind'],
  'java/p_02': ['gson'],
  'java/p_13': ['gson'],
  'cpp/p_02': ['nlohmann-json3-dev', 'nlohmann_json'],
  'cpp/p_11': ['libssl-dev', 'openssl'],
  'cpp/p_24': ['curl', 'libcurl4-openssl-dev'],
  'cpp/p_37': ['zlib', 'zlib1g-dev'],
};

const projects = LANGUAGES.flatMap((language) =>
  fs.readdirSync(path.join(CORPUS, language)).sort().map((task) => ({ language, task })),
);

describe('StaticAgent over corpus/quickstart', () => {
  const agent = new StaticAgent({ kind: 'static', name: 'static', path: CORPUS });

  it('covers every project of the corpus', () => {
    expect(projects.map((p) => `${p.language}/${p.task}`).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(projects)('$language/$task: a manifest envgap parses, naming what the code imports', async ({ language, task }) => {
    const answer = await agent.call(agentRequest({ language, task: { id: task, title: task, domain: 'd' } }));
    const declared = declaredDependencies(language, answer.files);
    expect(declared.problem ?? null).toBeNull();
    expect([...declared.names].sort()).toEqual(EXPECTED[`${language}/${task}`]);
    // Every file but the manifest is the recording's own, byte for byte.
    const source = await new ReplayAgent({ kind: 'replay', name: 'r', path: CORPUS }).call(agentRequest({ language, task: { id: task, title: task, domain: 'd' } }));
    for (const [p, content] of Object.entries(source.files)) if (!STATIC_MANIFESTS[language].includes(p)) expect(answer.files[p]).toBe(content);
    expect(answer.tokensIn).toBeNull();
    expect(answer.costUsd).toBeNull();
  });

  it('gives the same answer twice (deterministic, sorted)', async () => {
    const req = agentRequest({ language: 'cpp', task: { id: 'p_24', title: 't', domain: 'd' } });
    const [a, b] = [await agent.call(req), await agent.call(req)];
    expect(a.files).toEqual(b.files);
    expect(Object.keys(a.files)).toEqual([...Object.keys(a.files)].sort());
  });
});

describe('StaticAgent repair', () => {
  const agent = createAgent(parseAgentSpec({ kind: 'static', name: 'static', path: CORPUS }));

  it('is created from a static spec', () => {
    expect(agent).toBeInstanceOf(StaticAgent);
    expect(() => parseAgentSpec({ kind: 'static', name: 'static', path: CORPUS, iteration: -1 })).toThrow(/iteration/);
  });

  it('adds the module a real run named, and gives up on an error naming none', async () => {
    const req = agentRequest({ language: 'python', task: { id: 'p_49', title: 't', domain: 'd' } });
    const gen = await agent.call(req);
    const withoutDateutil = { ...gen.files, 'requirements.txt': 'croniter\n' };
    const tail = "Traceback (most recent call last):\n  File \"/work/main.py\", line 5, in <module>\n    from dateutil import tz\nModuleNotFoundError: No module named 'dateutil'\n";
    const repaired = await agent.call({ ...req, iteration: 1, previousFiles: withoutDateutil, error: { class: 'MissingDep', tail } });
    expect(repaired.files['requirements.txt']).toBe('croniter\npython-dateutil\n');
    await expect(agent.call({ ...req, iteration: 1, previousFiles: gen.files, error: { class: 'Runtime', tail: 'ZeroDivisionError: division by zero' } })).rejects.toBeInstanceOf(AgentGaveUpError);
  });
});
