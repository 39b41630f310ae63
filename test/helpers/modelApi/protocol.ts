import type * as http from 'node:http';

/** What the double needs to know of one request, read by the wire protocol that received it. */
export interface RequestView {
  /** The text of the latest user message that is not a tool result ('' where none). */
  lastUserText: string;
  /** Tool results after that message (the scripted turn's index). */
  toolResultsSince: number;
  /** The names of the tools the request offers ([] for an aux call: a title, a summary, a check). */
  toolNames: string[];
  /** The model asked for. */
  model: string;
}

/** What the double answers with in one response. */
export type Reply =
  /** A call of the CLI's shell tool (`tool`: one of the request's toolNames) running `command`. */
  | { kind: 'shell'; tool: string; command: string; callId: string }
  | { kind: 'text'; text: string };

export interface Usage {
  input: number;
  output: number;
}

/**
 * One wire protocol of a vendor's model API, in a file of its own (anthropic.ts, openaiResponses.ts,
 * openaiChat.ts, gemini.ts). The server parses the JSON body; the protocol reads it and writes the
 * reply (streamed where the request asked for a stream) and error bodies in its own shape.
 */
export interface WireProtocol {
  name: string;
  /** Whether this protocol serves the request (by method and path, e.g. POST /v1/messages). */
  matches(method: string, path: string): boolean;
  read(body: any, path: string): RequestView;
  /** The name of the shell tool among those offered (Claude's Bash, Gemini's run_shell_command...), or null. */
  shellTool(toolNames: string[]): string | null;
  /** The answer to an aux call (no tools offered), where the protocol's CLI needs a particular one. */
  auxReply?(body: any, path: string): Reply | null;
  respond(res: http.ServerResponse, body: any, path: string, reply: Reply, usage: Usage): void;
  fail(res: http.ServerResponse, status: number): void;
  /** Any other route the CLI calls (a model list, a token count): answered here, or false. */
  other?(req: http.IncomingMessage, res: http.ServerResponse, path: string, body: any): boolean;
}
