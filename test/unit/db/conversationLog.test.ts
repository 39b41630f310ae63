import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../../src/agents/chatRequest';
import { appendConversation, forgetRecentConversations, readConversation } from '../../../src/db/conversationLog';

/** The blob store's contract (content-addressed JSON), in memory, counting what is written. */
function memoryBlobs() {
  const stored = new Map<string, string>();
  let bytes = 0;
  return {
    stored,
    written: () => bytes,
    async putJson(value: unknown): Promise<string> {
      const text = JSON.stringify(value);
      const hash = createHash('sha256').update(text).digest('hex');
      if (!stored.has(hash)) bytes += Buffer.byteLength(text);
      stored.set(hash, text);
      return hash;
    },
    async getJson<T>(hash: string): Promise<T> {
      const text = stored.get(hash);
      if (text === undefined) throw new Error(`no blob ${hash}`);
      return JSON.parse(text) as T;
    },
  };
}

const turn = (i: number): ChatMessage[] => [
  { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `echo ${'x'.repeat(200)} ${i}` }) } }] },
  { role: 'tool', tool_call_id: `c${i}`, content: `output of step ${i} ${'y'.repeat(300)}` },
];

describe('a tool loop conversation stored step by step', () => {
  beforeEach(() => forgetRecentConversations());

  it('reads back every message in order, from the store alone', async () => {
    const blobs = memoryBlobs();
    const start: ChatMessage[] = [{ role: 'system', content: 'S' }, { role: 'user', content: 'U' }];
    let hash = await appendConversation(blobs, null, start);
    const all = [...start];
    for (let i = 0; i < 20; i++) {
      for (const m of turn(i)) {
        hash = await appendConversation(blobs, hash, [m]);
        all.push(m);
      }
    }
    expect(await readConversation(blobs, hash)).toEqual(all);
  });

  it('stores each message once: what is written grows with the conversation, not with its square', async () => {
    const blobs = memoryBlobs();
    let hash = await appendConversation(blobs, null, [{ role: 'system', content: 'S' }]);
    let whole = 0;
    for (let i = 0; i < 100; i++) {
      for (const m of turn(i)) hash = await appendConversation(blobs, hash, [m]);
      whole += JSON.stringify(turn(i)).length;
    }
    // Every message once, plus a hash per step; the whole conversation after every step would be ~50× this.
    expect(blobs.written()).toBeLessThan(whole * 1.5);
    expect((await readConversation(blobs, hash)).length).toBe(201);
  });

  it('reads a conversation stored whole (the layout before) and continues it', async () => {
    const blobs = memoryBlobs();
    const before: ChatMessage[] = [{ role: 'system', content: 'S' }, { role: 'user', content: 'U' }, ...turn(0)];
    const legacy = await blobs.putJson(before);
    expect(await readConversation(blobs, legacy)).toEqual(before);
    const next = await appendConversation(blobs, legacy, turn(1));
    forgetRecentConversations();
    expect(await readConversation(blobs, next)).toEqual([...before, ...turn(1)]);
  });

  it('gives what this process already read without the store', async () => {
    const blobs = memoryBlobs();
    const start: ChatMessage[] = [{ role: 'user', content: 'U' }];
    const first = await appendConversation(blobs, null, start, start);
    const second = await appendConversation(blobs, first, turn(0), [...start, ...turn(0)]);
    blobs.stored.clear();
    expect(await readConversation(blobs, second)).toEqual([...start, ...turn(0)]);
  });
});
