import { MockActivityEnvironment } from '@temporalio/testing';
import { createAgentActivities } from '../../src/activities/agent';
import type { AgentCallInput } from '../../src/activities/types';
import { createAgent } from '../../src/agents';
import type { AgentSpec } from '../../src/agents/spec';
import type { Agent } from '../../src/agents/types';
import type { Catalog } from '../../src/catalog/catalog';
import type { BlobStore } from '../../src/db/blobs';
import type { Db } from '../../src/db/connect';

/** What the activity stores: every blob put, and the iteration rows, as text. */
export function fakeStore() {
  const stored: string[] = [];
  const put = async (data: string | Uint8Array) => {
    stored.push(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
    return `hash${stored.length}`;
  };
  const blobs = {
    put,
    putJson: (value: unknown) => put(JSON.stringify(value)),
    write: (data: string | Uint8Array) => {
      const written = put(data);
      return { hash: `hash${stored.length}`, written };
    },
    async getText(): Promise<string> {
      throw new Error('not used');
    },
    async getJson(): Promise<never> {
      throw new Error('not used');
    },
  } as unknown as BlobStore;
  // recordAgentCall: insertInto().values().onConflict().execute()
  const chain: Record<string, unknown> = {};
  for (const m of ['insertInto', 'onConflict', 'columns', 'doUpdateSet']) chain[m] = () => chain;
  chain.values = (row: unknown) => {
    stored.push(JSON.stringify(row));
    return chain;
  };
  chain.onConflict = (f: (oc: unknown) => unknown) => {
    f(chain);
    return chain;
  };
  chain.execute = async () => [];
  return { stored, blobs, db: chain as unknown as Db };
}

/** One callAgent (Gen of a Python instance unless `overrides` say otherwise) on a fake store: what it returns and everything it stored. */
export function callAgentWith(spec: AgentSpec, agentFor: (spec: AgentSpec) => Agent = (s) => createAgent(s), overrides: Partial<AgentCallInput> = {}) {
  const store = fakeStore();
  const activities = createAgentActivities({
    db: store.db,
    blobs: store.blobs,
    catalog: { prompt: () => 'TASK: write a program' } as unknown as Catalog,
    createAgent: agentFor,
  });
  const input: AgentCallInput = {
    instanceId: 's/a/python/p_01/1',
    agent: spec,
    task: { id: 'p_01', title: 'T', domain: 'D' },
    language: 'python',
    trial: 1,
    iteration: 0,
    budget: 3,
    previousFilesHash: null,
    error: null,
    ...overrides,
  };
  return { store, result: new MockActivityEnvironment().run(activities.callAgent, input) };
}

