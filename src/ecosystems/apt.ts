import { ManifestError } from './manifestError';

const PACKAGE = /^[a-z0-9][a-z0-9+.-]+$/;
const VERSION = /^[A-Za-z0-9.+~:-]+$/;
const ARCHITECTURE = /^[a-z0-9-]+$/;

/**
 * The Debian packages of a repo2docker apt.txt: one or more per line (repo2docker hands each line to
 * `apt-get install` as it is), `#` starting a comment anywhere on a line, blank lines and CRLF allowed.
 * `name=version` and `name:arch` are accepted and give `name`: the result is package names only, in
 * the order written, without repeats, and every one matches the Debian package name rules, so it is
 * safe to put on a command line. Throws ManifestError on anything else.
 */
export function parseAptTxt(text: string, opts: { fileName: string }): string[] {
  const names: string[] = [];
  const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split('\n');
  lines.forEach((raw, index) => {
    const content = raw.split('#')[0].trim();
    for (const word of content === '' ? [] : content.split(/\s+/)) {
      const name = packageName(word);
      if (name === null) throw new ManifestError(opts.fileName, index + 1, `"${word}" is not a Debian package name`);
      if (!names.includes(name)) names.push(name);
    }
  });
  return names;
}

function packageName(word: string): string | null {
  const pin = word.indexOf('=');
  const [name, version] = pin < 0 ? [word, null] : [word.slice(0, pin), word.slice(pin + 1)];
  if (version !== null && !VERSION.test(version)) return null;
  const colon = name.indexOf(':');
  const [bare, architecture] = colon < 0 ? [name, null] : [name.slice(0, colon), name.slice(colon + 1)];
  if (architecture !== null && !ARCHITECTURE.test(architecture)) return null;
  return PACKAGE.test(bare) ? bare : null;
}
