import type { GoldError } from '../../domain/readme';
import type { Judge } from './judge';

// Curly and other typographic quotes become their ASCII forms; backticks and single quotes become `"`.
const QUOTE_CHARS: Record<string, string> = {
  '\u2018': '"', '\u2019': '"', '\u201A': '"', '\u201B': '"', '\u2032': '"',
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"',
  '\u00AB': '"', '\u00BB': '"', "'": '"', '`': '"',
};
const QUOTE_RE = /[\u2018\u2019\u201A\u201B\u2032\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB'`]/g;

/**
 * A fix as the deterministic judge compares it: Unicode NFC; every quote character (' ` and the
 * typographic ones) unified to `"`; every run of whitespace (newlines included) collapsed to one space;
 * trimmed; then surrounding quotes (after unification: `"`) stripped pairwise from both ends, trimming
 * again each time, so `` `pip install x` `` and "```pip install x```" both read `pip install x`.
 * Case is kept (commands are case-sensitive).
 */
export function normaliseFix(text: string): string {
  let s = text.normalize('NFC').replace(QUOTE_RE, (c) => QUOTE_CHARS[c]).replace(/\s+/g, ' ').trim();
  while (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1).trim();
  return s;
}

/**
 * Offline and reproducible: a fix is similar when it equals the gold error's `golden_answer` after
 * normaliseFix; descriptions are not judged (description_accuracy is null with this judge).
 */
export const deterministicJudge: Judge = {
  name: 'deterministic',
  judgesDescriptions: false,
  judgesFixes: true,
  describesSame: async () => null,
  fixesSame: async (predicted: string, gold: GoldError) => normaliseFix(predicted) === normaliseFix(gold.golden_answer),
};
