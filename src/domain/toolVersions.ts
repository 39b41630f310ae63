/** The tools whose versions a record's provenance names, and how each prints its version. */
export const PROVENANCE_TOOLS = ['python', 'pip', 'node', 'npm', 'java', 'mvn', 'cmake', 'g++', 'strace'] as const;

/**
 * One shell command that prints `tool<TAB>first line of its version output` for each tool the image
 * has. The JVM's perf data is off so that the look leaves no /tmp/hsperfdata behind.
 */
export const TOOL_VERSIONS_SCRIPT = [
  'for t in python3 pip node npm java mvn cmake g++ strace; do',
  'command -v "$t" >/dev/null 2>&1 || continue;',
  'case "$t" in',
  'java) v="$(java -XX:-UsePerfData -version 2>&1 | head -n 1)";;',
  'mvn) v="$(MAVEN_OPTS=-XX:-UsePerfData mvn -B --version 2>&1 | head -n 1)";;',
  'strace) v="$(strace -V 2>&1 | head -n 1)";;',
  '*) v="$("$t" --version 2>&1 | head -n 1)";;',
  'esac;',
  'printf \'%s\\t%s\\n\' "$t" "$v";',
  'done',
].join(' ');

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const VERSION = /\d+(?:\.\d+)+(?:[-+~][0-9A-Za-z.+~-]*)?/g;

/**
 * The output of TOOL_VERSIONS_SCRIPT as tool -> version (`python3` reported as `python`). The version
 * is the first dotted number of the line (`pip 23.0.1 from … (python 3.11)` -> 23.0.1), for g++ the
 * last (`g++ (Debian 12.2.0-14) 12.2.0` -> 12.2.0). A line with no version keeps its text, trimmed.
 */
export function parseToolVersions(output: string): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const raw of output.split(/\r?\n/)) {
    const tab = raw.indexOf('\t');
    if (tab <= 0) continue;
    const tool = raw.slice(0, tab) === 'python3' ? 'python' : raw.slice(0, tab);
    const line = raw.slice(tab + 1).replace(ANSI, '').trim();
    if (line === '') continue;
    const found = line.match(VERSION) ?? [];
    const version = tool === 'g++' ? found[found.length - 1] : found[0];
    versions[tool] = (version ?? line).replace(/^v/, '');
  }
  return versions;
}
