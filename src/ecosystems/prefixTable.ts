/**
 * The static baselines' tables map name prefixes (a Java package, an #include path) to what provides
 * them; where several prefixes match a name, the longest wins. `matches` says whether a prefix
 * covers the name, by the language's own rule.
 */
export function longestMatchingPrefix<T>(table: Readonly<Record<string, T>>, matches: (prefix: string) => boolean): T | null {
  let best: string | null = null;
  for (const prefix of Object.keys(table)) {
    if (matches(prefix) && (!best || prefix.length > best.length)) best = prefix;
  }
  return best ? table[best]! : null;
}
