// PEP 440 version specifiers, checked as strictly as pip 23 (packaging) does, so a manifest that pip
// would reject is rejected here too.

const EPOCH_AND_RELEASE = String.raw`v?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*`;
const PRE = String.raw`(?:[-_.]?(?:alpha|a|beta|b|preview|pre|c|rc)[-_.]?[0-9]*)?`;
const POST = String.raw`(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?`;
const DEV = String.raw`(?:[-_.]?dev[-_.]?[0-9]*)?`;
const LOCAL = String.raw`(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?`;

const PUBLIC_VERSION = EPOCH_AND_RELEASE + PRE + POST + DEV;
const FULL_VERSION = new RegExp(`^${PUBLIC_VERSION}${LOCAL}$`, 'i');
const PREFIX_MATCH = new RegExp(`^${EPOCH_AND_RELEASE}\\.\\*$`, 'i');
const ORDERED_VERSION = new RegExp(`^${PUBLIC_VERSION}$`, 'i');
// ~= needs at least two release segments (~=1 has no meaning).
const COMPATIBLE_VERSION = new RegExp(`^v?(?:[0-9]+!)?[0-9]+(?:\\.[0-9]+)+${PRE}${POST}${DEV}$`, 'i');

const CLAUSE = /^(===|==|!=|~=|<=|>=|<|>)\s*(\S+)$/;

export function isValidVersion(version: string): boolean {
  return FULL_VERSION.test(version);
}

/** One clause such as `>=1.2` or `== 3.0.*`, returned without inner spaces, or null when invalid. */
export function normalizeSpecifierClause(clause: string): string | null {
  const match = CLAUSE.exec(clause.trim());
  if (!match) return null;
  const [, operator, version] = match;
  const valid =
    operator === '===' ? true
    : operator === '==' || operator === '!=' ? FULL_VERSION.test(version) || PREFIX_MATCH.test(version)
    : operator === '~=' ? COMPATIBLE_VERSION.test(version)
    : ORDERED_VERSION.test(version);
  return valid ? operator + version : null;
}

/** A comma-separated specifier set such as `>= 1.0, < 2`, returned as `>=1.0,<2`; throws on any invalid clause. */
export function normalizeSpecifierSet(text: string): string {
  const clauses = text.split(',').map((clause) => {
    const normalized = normalizeSpecifierClause(clause);
    if (normalized === null) throw new Error(`invalid version specifier "${clause.trim()}"`);
    return normalized;
  });
  return clauses.join(',');
}
