import { z } from 'zod';
import { DetectedError, type ReadmeAnswer } from '../domain/readme';
import { describeIssues } from '../text/zodIssues';

const MAX_TEXT = 4096;
const AnswerJson = z.object({ detected_errors: z.array(DetectedError).max(200) });

export type ParsedAnswer = { ok: true; answer: ReadmeAnswer } | { ok: false; problem: string };

/** The text between a ```<lang> fence and the next ```, as upstream's parse_llm_response reads it; null where there is none. */
function fenced(text: string, lang: string): string | null {
  const open = text.indexOf('```' + lang);
  if (open < 0) return null;
  const from = open + 3 + lang.length;
  const close = text.indexOf('```', from);
  return close < 0 ? null : text.slice(from, close).trim();
}

const cap = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);

/**
 * An answer in EnConda's format: a ```json block `{"detected_errors": [{error_type, error_description,
 * fix_suggestion}]}`, then a ```bash setup script. The JSON block is required (without it the answer is
 * the agent's invalid_answer, as upstream drops it); the script may be missing (setup_script null;
 * upstream substitutes a script that only echoes).
 */
export function parseReadmeAnswer(text: string): ParsedAnswer {
  const json = fenced(text, 'json');
  if (json === null) return { ok: false, problem: 'no ```json block with the detected errors' };
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    return { ok: false, problem: `the \`\`\`json block is not JSON: ${(err as Error).message}` };
  }
  const parsed = AnswerJson.safeParse(data);
  if (!parsed.success) return { ok: false, problem: `the \`\`\`json block is not {"detected_errors": [...]}: ${describeIssues(parsed.error).join("; ")}` };
  const script = fenced(text, 'bash');
  return {
    ok: true,
    answer: {
      detected_errors: parsed.data.detected_errors.map((e) => ({ error_type: cap(e.error_type.trim()), error_description: cap(e.error_description), fix_suggestion: cap(e.fix_suggestion) })),
      setup_script: script === null || script === '' ? null : script,
    },
  };
}

/** An answer written back in the same format (the oracle's and a replayed answer's text). */
export function formatReadmeAnswer(answer: ReadmeAnswer): string {
  const json = JSON.stringify({ detected_errors: answer.detected_errors }, null, 2);
  return `\`\`\`json\n${json}\n\`\`\`\n${answer.setup_script === null ? '' : `\n\`\`\`bash\n${answer.setup_script}\n\`\`\`\n`}`;
}
