// Options that may appear in a requirements file (pip's req_file SUPPORTED_OPTIONS and
// SUPPORTED_OPTIONS_REQ), grouped by what they mean for the declared dependency set.

export type OptionRole =
  | 'include' // -r: its requirements are ours
  | 'constraint' // -c: pins versions, declares nothing
  | 'editable' // -e: one requirement, given as a path or VCS URL
  | 'global' // index, find-links, binary policy...: no dependency
  | 'perRequirement'; // --hash and friends, after a requirement on the same line

interface OptionSpec {
  role: OptionRole;
  takesValue: boolean;
}

const OPTION_SPECS: Record<string, OptionSpec> = {
  '-r': { role: 'include', takesValue: true },
  '--requirement': { role: 'include', takesValue: true },
  '-c': { role: 'constraint', takesValue: true },
  '--constraint': { role: 'constraint', takesValue: true },
  '-e': { role: 'editable', takesValue: true },
  '--editable': { role: 'editable', takesValue: true },
  '-i': { role: 'global', takesValue: true },
  '--index-url': { role: 'global', takesValue: true },
  '--extra-index-url': { role: 'global', takesValue: true },
  '-f': { role: 'global', takesValue: true },
  '--find-links': { role: 'global', takesValue: true },
  '--trusted-host': { role: 'global', takesValue: true },
  '--no-binary': { role: 'global', takesValue: true },
  '--only-binary': { role: 'global', takesValue: true },
  '--use-feature': { role: 'global', takesValue: true },
  '--no-index': { role: 'global', takesValue: false },
  '--pre': { role: 'global', takesValue: false },
  '--prefer-binary': { role: 'global', takesValue: false },
  '--require-hashes': { role: 'global', takesValue: false },
  '--hash': { role: 'perRequirement', takesValue: true },
  '--global-option': { role: 'perRequirement', takesValue: true },
  '--install-option': { role: 'perRequirement', takesValue: true },
  '--config-settings': { role: 'perRequirement', takesValue: true },
  '-C': { role: 'perRequirement', takesValue: true },
};

export type ParsedOption =
  | { known: true; option: string; role: OptionRole; value: string | null }
  | { known: false; option: string };

export interface ParsedOptions {
  options: ParsedOption[];
  /** Words that are neither options nor their values (pip ignores them), e.g. a marker after `-e URL`. */
  stray: string[];
}

/** Parses `-r base.txt`, `-rbase.txt`, `--index-url=URL`, `--hash sha256:..` and so on; throws when a value is missing. */
export function parseOptions(text: string): ParsedOptions {
  const tokens = text.trim().split(/\s+/).filter((t) => t !== '');
  const parsed: ParsedOption[] = [];
  const stray: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!tokens[i].startsWith('-')) {
      stray.push(tokens[i]);
      continue;
    }
    const { option, attached } = splitOptionToken(tokens[i]);
    const spec = OPTION_SPECS[option];
    if (!spec) {
      parsed.push({ known: false, option });
      continue;
    }
    let value: string | null = null;
    if (spec.takesValue) {
      value = attached ?? tokens[++i] ?? null;
      if (value === null || value === '') throw new Error(`option ${option} needs a value`);
      value = unquote(value);
    }
    parsed.push({ known: true, option, role: spec.role, value });
  }
  return { options: parsed, stray };
}

function splitOptionToken(token: string): { option: string; attached: string | undefined } {
  if (token.startsWith('--')) {
    const eq = token.indexOf('=');
    return eq < 0 ? { option: token, attached: undefined } : { option: token.slice(0, eq), attached: token.slice(eq + 1) };
  }
  // Short options take their value glued on, as optparse allows: `-rbase.txt`.
  if (token.length > 2) return { option: token.slice(0, 2), attached: token.slice(2) };
  return { option: token, attached: undefined };
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? quoted[2] : value;
}
