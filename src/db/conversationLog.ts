import type { ChatMessage } from '../agents/chatRequest';
import type { BlobStore } from './blobs';

type Blobs = Pick<BlobStore, 'putJson' | 'getJson'>;

/**
 * A tool loop's conversation, stored step by step: each step's blob holds only the messages it added
 * and the hash of the blob before it, so a long session stores every message once rather than the
 * whole conversation again after every step. A plain array (the layout before) is a whole
 * conversation on its own, and is read as one.
 */
export interface ConversationChunk {
  previous: string | null;
  messages: ChatMessage[];
}

/** Consecutive steps of a session usually run on the same worker: it keeps the last conversations read. */
const RECENT = 32;
const recent = new Map<string, ChatMessage[]>();

function remember(hash: string, messages: ChatMessage[]): void {
  recent.delete(hash);
  recent.set(hash, messages);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
}

/** Forgets what this process read (a test reading from the store alone). */
export function forgetRecentConversations(): void {
  recent.clear();
}

/** Stores `added` after the conversation `previous` (null: the start); returns the new conversation's hash. */
export async function appendConversation(blobs: Blobs, previous: string | null, added: ChatMessage[], whole?: ChatMessage[]): Promise<string> {
  const hash = await blobs.putJson({ previous, messages: added } satisfies ConversationChunk);
  if (whole) remember(hash, whole);
  return hash;
}

/** The whole conversation ending at `hash`, first message first. */
export async function readConversation(blobs: Blobs, hash: string): Promise<ChatMessage[]> {
  const known = recent.get(hash);
  if (known) return known;
  const chunks: ChatMessage[][] = [];
  let at: string | null = hash;
  while (at !== null) {
    const cached = recent.get(at);
    if (cached) {
      chunks.push(cached);
      break;
    }
    const value: ConversationChunk | ChatMessage[] = await blobs.getJson<ConversationChunk | ChatMessage[]>(at);
    if (Array.isArray(value)) {
      chunks.push(value);
      break;
    }
    chunks.push(value.messages);
    at = value.previous;
  }
  const messages = chunks.reverse().flat();
  remember(hash, messages);
  return messages;
}
