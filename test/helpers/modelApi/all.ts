import { anthropicMessages } from './anthropic';
import { geminiGenerateContent } from './gemini';
import { openaiChat } from './openaiChat';
import { openaiResponses } from './openaiResponses';
import type { WireProtocol } from './protocol';

/** Every wire protocol the double speaks, tried in this order. */
export const PROTOCOLS: readonly WireProtocol[] = [anthropicMessages, openaiResponses, openaiChat, geminiGenerateContent];
