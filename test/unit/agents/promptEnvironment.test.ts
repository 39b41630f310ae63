import { MockActivityEnvironment } from '@temporalio/testing';
import { createAgentActivities } from '../../../src/activities/agent';
import type { AgentCallInput } from '../../../src/activities/types';
import type { AgentSpec } from '../../../src/agents/spec';
import type { AgentRequest } from '../../../src/agents/types';
import { loadCatalog } from '../../../src/catalog/catalog';
import type { BlobStore } from '../../../src/db/blobs';
import { fakeStore } from '../../helpers/agentActivity';

/** One call of the agent activity with the real catalog; what the agent was asked. */
async function promptSent(overrides: Partial<AgentCallInput>, debianSuite?: string): Promise<string> {
  const store = fakeStore();
  const asked: string[] = [];
  const agent = {
    name: 'capture',
    async call(req: AgentRequest) {
      asked.push(req.prompt);
      return { files: { 'main.py': 'print(1)\n', 'requirements.txt': '' }, tokensIn: null, tokensOut: null, costUsd: null, durationMs: 0 };
    },
  };
  const blobs = { ...store.blobs, getText: async () => "ModuleNotFoundError: No module named 'yaml'\n" } as unknown as BlobStore;
  const activities = createAgentActivities({ db: store.db, blobs, catalog: loadCatalog(), createAgent: () => agent, ...(debianSuite ? { settings: { debianSuite } } : {}) });
  const spec = { kind: 'openai', name: 'o', base_url: 'http://h', model: 'm', timeout_s: 1, run_file: false } as unknown as AgentSpec;
  const input: AgentCallInput = {
    instanceId: 's/o/javascript/p_49/1', agent: spec, task: { id: 'p_49', title: 'Cron', domain: 'D' }, language: 'javascript',
    trial: 1, iteration: 0, budget: 3, previousFilesHash: null, error: null, ...overrides,
  };
  await new MockActivityEnvironment().run(activities.callAgent, input);
  return asked[0];
}

describe('the prompts an agent is sent state the environment the study chose', () => {
  it('actual: Gen names the image, Debian 12 with Node.js 18, and Repair the same machine', async () => {
    const gen = await promptSent({ promptEnvironment: 'actual' });
    expect(gen).toContain('for a clean Debian 12 (bookworm) machine with only Node.js 18 and npm');
    expect(gen).not.toContain('Ubuntu');
    const repair = await promptSent({ promptEnvironment: 'actual', iteration: 1, previousFilesHash: null, error: { class: 'MissingDep', hash: 'e' } });
    expect(repair).toContain('Your JavaScript project was set up and run on a clean Debian 12 (bookworm) machine, following');
  });

  it('paper, or an instance that does not say (started before the choice): the published text', async () => {
    for (const overrides of [{ promptEnvironment: 'paper' as const }, {}]) {
      expect(await promptSent(overrides)).toContain('for a clean Ubuntu 22.04 machine with only Node.js 20+ (LTS) installed. Include:');
    }
    expect(await promptSent({ iteration: 1, error: { class: 'MissingDep', hash: 'e' } })).toContain('run on a clean Ubuntu 22.04 machine, following');
  });

  it('the images\' suite decides the facts', async () => {
    expect(await promptSent({ promptEnvironment: 'actual' }, 'trixie')).toContain('for a clean Debian 13 (trixie) machine with only Node.js 20 and npm');
  });
});
