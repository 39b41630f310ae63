/** Model turns of one tool loop call (an `openai` agent with tool_loop) unless the spec's `max_turns` says otherwise. */
export const DEFAULT_MAX_TURNS = 50;
