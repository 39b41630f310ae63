/**
 * What the model-API double (./server.ts) answers, scripted per test. A test says what the agent does
 * in each turn; the double speaks it in whatever wire protocol the CLI uses, with the CLI's own shell
 * tool (found among the tools the request offers).
 */
export type Turn =
  /** The agent runs this command with its own shell tool (it writes files this way too). */
  | { shell: string }
  /** The agent answers with text and ends its turn. */
  | { text: string }
  /** The endpoint answers with this HTTP status (429, 500, 401...) and an error body in the protocol's shape. */
  | { fail: number }
  /** The endpoint never answers (the connection stays open until the server closes). */
  | { hang: true };

/**
 * One scripted conversation: chosen for a request whose latest user message (not a tool result)
 * contains `when` (the first entry that matches; an entry without `when` matches any). The turn
 * answered is the number of tool results after that message: the double keeps no state of its own,
 * so an aux call, a retry or a resumed session all land on the right turn.
 */
export interface Conversation {
  when?: string;
  turns: Turn[];
}

export interface ModelScript {
  conversations: Conversation[];
  /** Tokens each main-loop response reports (aux calls report none). */
  usage?: { input: number; output: number };
}

/** One scripted conversation turn chosen for a request. */
export type Chosen = Turn | { text: string; exhausted: true };

export function chooseTurn(script: ModelScript, lastUserText: string, toolResultsSince: number): Chosen {
  const conversation = script.conversations.find((c) => c.when === undefined || lastUserText.includes(c.when));
  if (!conversation) return { text: 'Nothing scripted for this prompt.', exhausted: true };
  const turn = conversation.turns[toolResultsSince];
  // Past the script's end the agent says it is done (a CLI that asks again gets the same answer).
  return turn ?? { text: 'Done.', exhausted: true };
}
