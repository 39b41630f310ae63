import type { Language } from '../domain/instance';
import { dependencyName, type DependencyLayer } from './envgapNames';

/**
 * How a dependency-list cell is split. `as-published`: on commas only, as the paper's script reads
 * the CSVs; a cell written with spaces between names (Codex's and Gemini's JavaScript runtime lists,
 * some Java and JavaScript installed lists) is then one long name. `whitespace-aware`: a cell with no
 * comma whose space-separated words all look like package names is read as that list of names.
 */
export type ListReading = 'as-published' | 'whitespace-aware';

const PACKAGE_LIKE = /^[@A-Za-z0-9][\w.@/+-]*$/;

function splitCell(cell: string, reading: ListReading): string[] {
  if (reading === 'whitespace-aware' && !cell.includes(',')) {
    const words = cell.trim().split(/\s+/);
    if (words.length > 1 && words.every((w) => PACKAGE_LIKE.test(w))) return words;
  }
  return cell.split(',');
}

/** The distinct names of a list cell, in first-seen order. */
export function dependencyList(cell: string, language: Language, layer: DependencyLayer, reading: ListReading): string[] {
  const names = splitCell(cell, reading).map((part) => dependencyName(part, language, layer));
  return [...new Set(names.filter((n): n is string => n !== null))];
}
