interface NpmLsNode {
  dependencies?: Record<string, NpmLsNode>;
  missing?: boolean;
  version?: unknown;
  resolved?: unknown;
}

/**
 * D2 for JavaScript: the package names in `npm ls --all --json`, the whole installed tree. The root
 * project is left out, and so are entries npm reports as missing (required but not installed) and
 * entries with neither a version nor a resolved address: npm 9 prints an optional dependency it skipped
 * (another platform's prebuilt binary, such as sharp's `@img/sharp-darwin-arm64`) as `{}`, and it is
 * not in node_modules. Extraneous and invalid ones are installed, so they count. Names are the keys npm prints (an alias
 * stays the alias). Sorted and unique. npm exits 1 when the tree has problems yet prints it: the exit
 * code is for the caller to judge. Throws when the text is not a JSON object.
 */
export function parseNpmLs(json: string): string[] {
  const root = parseJsonObject(json);
  const names = new Set<string>();
  const visit = (node: NpmLsNode) => {
    for (const [name, dependency] of Object.entries(node.dependencies ?? {})) {
      if (typeof dependency !== 'object' || dependency === null || dependency.missing === true) continue;
      if (!isInstalled(dependency)) continue;
      names.add(name);
      visit(dependency);
    }
  };
  visit(root);
  return [...names].sort();
}

/** npm prints a version (or at least the resolved address) for every package it put in node_modules. */
function isInstalled(node: NpmLsNode): boolean {
  const present = (value: unknown) => typeof value === 'string' && value !== '';
  return present(node.version) || present(node.resolved);
}

function parseJsonObject(text: string): NpmLsNode {
  // npm may print warnings to the same stream before the JSON.
  const start = text.indexOf('{');
  const candidates = [text.trim(), start > 0 ? text.slice(start).trim() : null];
  for (const candidate of candidates) {
    if (candidate === null) continue;
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as NpmLsNode;
    } catch {
      // try the next candidate
    }
  }
  const preview = text.trim().slice(0, 200);
  throw new Error(`npm ls output is not a JSON object (expected \`npm ls --all --json\`): ${JSON.stringify(preview)}`);
}
