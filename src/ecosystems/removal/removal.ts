import type { ProjectFiles } from '../../domain/files';

/**
 * A manifest with some names taken out, as a pure text transform of the project: the files changed
 * (only those), which of the names were found and taken out, and which were not found where the
 * transform looks (left as they are).
 */
export interface Removal {
  files: ProjectFiles;
  removed: string[];
  notFound: string[];
}

/** What a transform of one file gives: its new text, and the names it took out. */
export interface FileRemoval {
  text: string;
  removed: string[];
}

/** The project with `changed` applied, and the names the transforms did not find. */
export function removalOf(files: ProjectFiles, changed: ProjectFiles, names: readonly string[], removed: Iterable<string>): Removal {
  const taken = new Set(removed);
  return {
    files: { ...files, ...changed },
    removed: names.filter((n) => taken.has(n)),
    notFound: names.filter((n) => !taken.has(n)),
  };
}

/** Splits text into lines, each keeping its own end (`\n`, `\r\n` or none), so that joining them gives the text back. */
export function linesWithEnds(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}
