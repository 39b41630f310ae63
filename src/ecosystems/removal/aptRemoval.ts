import type { ProjectFiles } from '../../domain/files';
import { linesWithEnds, removalOf, type FileRemoval, type Removal } from './removal';

const APT = 'apt.txt';

/**
 * apt.txt without the given Debian packages (as D1 has them: `name=version` and `name:arch` name
 * `name`): each word that names one goes, and a line left with nothing but blanks or a comment goes too.
 */
export function withoutAptPackages(files: ProjectFiles, names: readonly string[]): Removal {
  const text = files[APT];
  if (typeof text !== 'string') return removalOf(files, {}, names, []);
  const r = withoutAptWords(text, new Set(names));
  return removalOf(files, r.removed.length > 0 ? { [APT]: r.text } : {}, names, r.removed);
}

export function withoutAptWords(text: string, wanted: ReadonlySet<string>): FileRemoval {
  const removed: string[] = [];
  const lines = linesWithEnds(text).flatMap((line) => {
    const hash = line.indexOf('#');
    const [content, comment] = hash < 0 ? [line.replace(/\r?\n$|\r$/, ''), ''] : [line.slice(0, hash), line.slice(hash).replace(/\r?\n$|\r$/, '')];
    const end = /\r?\n$|\r$/.exec(line)?.[0] ?? '';
    const words = content.trim() === '' ? [] : content.trim().split(/\s+/);
    const kept = words.filter((w) => {
      const name = w.replace(/[=:].*$/, '');
      if (!wanted.has(name)) return true;
      removed.push(name);
      return false;
    });
    if (kept.length === words.length) return [line];
    if (kept.length === 0 && comment === '') return [];
    const indent = /^[ \t]*/.exec(content)![0];
    return [`${indent}${kept.join(' ')}${kept.length > 0 && comment ? ' ' : ''}${comment}${end}`];
  });
  return { text: lines.join(''), removed: [...new Set(removed)] };
}
