/**
 * Folders npm entered to run lifecycle scripts during `npm install`: successful `chdir` calls in an
 * strace log (`-e trace=chdir`), in first-seen order.
 */
export function parseStraceChdirs(log: string): string[] {
  const seen = new Set<string>();
  for (const m of log.matchAll(/chdir\("((?:[^"\\]|\\.)*)"\)\s*=\s*0\b/g)) seen.add(m[1].replace(/\\(.)/g, '$1'));
  return [...seen];
}

/** Packages whose install scripts ran: the chdir targets that are package folders under node_modules. */
export function packagesWithInstallScripts(chdirs: string[], packageDirs: Map<string, string>): string[] {
  const names = new Set<string>();
  for (const dir of chdirs) {
    const name = packageDirs.get(dir.replace(/\/+$/, ''));
    if (name && dir.includes('/node_modules/')) names.add(name);
  }
  return [...names].sort();
}
