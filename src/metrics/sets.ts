export function intersectionSize(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const x of small) if (large.has(x)) n += 1;
  return n;
}

/** |a \ b| */
export function differenceSize(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  return a.size - intersectionSize(a, b);
}

export function difference(a: ReadonlySet<string>, b: ReadonlySet<string>): string[] {
  return [...a].filter((x) => !b.has(x));
}

/** |a n b| / |a u b|, and 1 when both sets are empty (two empty declarations agree). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const common = intersectionSize(a, b);
  return common / (a.size + b.size - common);
}

export function union(sets: readonly ReadonlySet<string>[]): Set<string> {
  const out = new Set<string>();
  for (const s of sets) for (const x of s) out.add(x);
  return out;
}

export function intersection(sets: readonly ReadonlySet<string>[]): Set<string> {
  if (sets.length === 0) return new Set();
  const [first, ...rest] = sets;
  return new Set([...first].filter((x) => rest.every((s) => s.has(x))));
}

export function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && intersectionSize(a, b) === a.size;
}
