import { z } from 'zod';
import { postChatCompletion } from './chatRequest';
import type { OpenAISpec } from '../domain/agentSpec';
import type { GoldError } from '../domain/readme';
import type { Judge } from '../metrics/readme/judge';
import { describeIssues } from '../text/zodIssues';

/** Upstream's text_similarity_evaluator.py, its two task descriptions and answer format. */
export const JUDGE_SYSTEM_PROMPT = 'You are an expert evaluator for text similarity assessment.';
const DESCRIPTION_TASK = `You need to evaluate whether two error descriptions are semantically similar.
Two descriptions are considered similar if they describe the same type of problem,
even if the wording is different.`;
const FIX_TASK = `You need to evaluate whether two fix solutions are semantically similar.
Two solutions are considered similar if they propose the same or equivalent
approach to solve the problem, even if the specific commands or wording differ.`;

export function similarityPrompt(kind: 'description' | 'fix', predicted: string, gold: string): string {
  return `${kind === 'description' ? DESCRIPTION_TASK : FIX_TASK}

Text 1: ${predicted}

Text 2: ${gold}

Please evaluate the similarity and respond in the following JSON format:
{
    "is_similar": true/false,
    "confidence": 0.0-1.0,
    "reason": "Brief explanation of your decision"
}

Consider the texts similar if they convey the same core meaning, even with different wording.`;
}

const SimilarityAnswer = z.object({
  is_similar: z.boolean(),
  confidence: z.number().min(0).max(1).optional(),
  reason: z.string().optional(),
});

export interface OpenAIJudgeOptions {
  model: string;
  /** e.g. `https://api.openai.com/v1`; the judge POSTs to `<base_url>/chat/completions`. */
  baseUrl: string;
  /** The NAME of the environment variable holding the API key (none: no Authorization header); the key itself is never written anywhere. */
  apiKeyEnv?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

function excerpt(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The model's verdict from its message: the JSON object from the first `{` to the last `}` (as upstream
 * extracts it), validated. Anything else is an error (upstream guesses from the words "true"/"similar").
 */
export function parseSimilarityAnswer(content: string, where: string): boolean {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start === -1 || end < start) throw new Error(`${where}: the judge's answer holds no JSON object: ${JSON.stringify(excerpt(content))}`);
  let raw: unknown;
  try {
    raw = JSON.parse(content.slice(start, end + 1));
  } catch (e) {
    throw new Error(`${where}: the judge's answer is not valid JSON (${(e as Error).message}): ${JSON.stringify(excerpt(content))}`);
  }
  const parsed = SimilarityAnswer.safeParse(raw);
  if (!parsed.success) throw new Error(`${where}: the judge's answer is not a similarity verdict: ${describeIssues(parsed.error).join('; ')}`);
  return parsed.data.is_similar;
}

/** A judge that asks an OpenAI-compatible chat completions endpoint upstream's questions. Named `openai:<model>`. */
export function openaiJudge(opts: OpenAIJudgeOptions): Judge {
  const env = opts.env ?? process.env;
  if (opts.apiKeyEnv !== undefined && !env[opts.apiKeyEnv]) throw new Error(`openai judge: the environment variable ${opts.apiKeyEnv} (--judge-api-key-env) is not set`);
  const spec: OpenAISpec = { kind: 'openai', name: `judge-${opts.model}`, base_url: opts.baseUrl, model: opts.model, api_key_env: opts.apiKeyEnv, timeout_s: (opts.timeoutMs ?? 120_000) / 1000, temperature: 0.1, max_tokens: 500 };

  const ask = async (kind: 'description' | 'fix', predicted: string, gold: string): Promise<boolean> => {
    const where = `openai judge (${opts.model} at ${opts.baseUrl.replace(/\/+$/, "")}/chat/completions, ${kind})`;
    const { message } = await postChatCompletion(spec, { messages: [{ role: 'system', content: JUDGE_SYSTEM_PROMPT }, { role: 'user', content: similarityPrompt(kind, predicted, gold) }] }, env, `openai judge (${opts.model})`);
    return parseSimilarityAnswer(message.content ?? '', where);
  };

  return {
    name: `openai:${opts.model}`,
    judgesDescriptions: true,
    judgesFixes: true,
    describesSame: (predicted: string, gold: GoldError) => ask('description', predicted, gold.error_description),
    fixesSame: (predicted: string, gold: GoldError) => ask('fix', predicted, gold.golden_answer),
  };
}
