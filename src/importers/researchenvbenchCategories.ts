import { parseCsvRecords } from '../catalog/csv';
import { normalizeRepoUrl } from './researchenvbenchValues';

/** One row of upstream's scripts_repos_test_categories.csv, cells trimmed. */
export type CategoriesRow = Record<string, string>;

export interface CategoriesIndex {
  bySlug: Map<string, CategoriesRow>;
  byRepo: Map<string, CategoriesRow>;
  byGit: Map<string, CategoriesRow>;
}

export const CATEGORIES_COLUMNS = ['repo_slug', 'repo', 'git_link', 'supports_cpu', 'supports_single_gpu', 'supports_multi_gpu'] as const;

export function parseCategoriesCsv(text: string, source: string): CategoriesRow[] {
  let rows: Record<string, string>[];
  try {
    rows = parseCsvRecords(text);
  } catch (err) {
    throw new Error(`${source}: ${(err as Error).message}`);
  }
  const missing = rows.length === 0 ? [] : CATEGORIES_COLUMNS.filter((c) => !(c in rows[0]));
  if (missing.length > 0) throw new Error(`${source}: no column ${missing.join(', ')}`);
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.trim()])));
}

/** Upstream's three lookups; a later row with the same key wins, as in its dicts. */
export function indexCategories(rows: readonly CategoriesRow[]): CategoriesIndex {
  const index: CategoriesIndex = { bySlug: new Map(), byRepo: new Map(), byGit: new Map() };
  for (const r of rows) {
    if (r.repo_slug) index.bySlug.set(r.repo_slug, r);
    if (r.repo) index.byRepo.set(r.repo, r);
    const git = normalizeRepoUrl(r.git_link ?? '');
    if (git) index.byGit.set(git, r);
  }
  return index;
}

/** The row of a job: by script_id, then owner/name (case as written), then repository URL. */
export function findCategoriesRow(index: CategoriesIndex, scriptId: string, repoUrl: string, repoFullName: string): CategoriesRow | null {
  const sid = scriptId.trim();
  if (sid && index.bySlug.has(sid)) return index.bySlug.get(sid) ?? null;
  const rfn = repoFullName.trim();
  if (rfn && index.byRepo.has(rfn)) return index.byRepo.get(rfn) ?? null;
  const url = normalizeRepoUrl(repoUrl);
  return (url && index.byGit.get(url)) || null;
}
