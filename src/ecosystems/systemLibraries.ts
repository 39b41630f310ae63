/**
 * Libraries every C and C++ program loads whatever its code does (the paper's seven), by name
 * without `lib` and `.so*`. The dynamic loader (ld-linux-*) is excluded too: see isBaseRuntimeLibrary.
 */
export const BASE_RUNTIME_LIBRARIES: ReadonlySet<string> = new Set(['c', 'stdc++', 'm', 'gcc_s', 'pthread', 'dl', 'rt']);

const SHARED_OBJECT = /^(.+?)\.so(?:\.\d+)*$/;
const STATIC_ARCHIVE = /^lib(.+)\.a$/;

/** Lower case, without a leading `lib`: how C++ library names are compared (`libcurl` -> `curl`). */
export function normalizeLibraryName(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower.startsWith('lib') && lower.length > 3 ? lower.slice(3) : lower;
}

/**
 * The library name of a shared object: `/usr/lib/x86_64-linux-gnu/libssl.so.3` -> `ssl`,
 * `libz.so.1.2.13` -> `z`, `libstdc++.so.6` -> `stdc++`; null when the file name is no `.so[.N...]`.
 */
export function libraryNameOfSharedObject(path: string): string | null {
  const match = SHARED_OBJECT.exec(baseName(path));
  return match ? normalizeLibraryName(match[1]) : null;
}

/** `libfmt.a` -> `fmt`; null for anything else. */
export function libraryNameOfStaticArchive(path: string): string | null {
  const match = STATIC_ARCHIVE.exec(baseName(path));
  return match ? match[1].toLowerCase() : null;
}

export function isBaseRuntimeLibrary(name: string): boolean {
  return BASE_RUNTIME_LIBRARIES.has(name) || /^ld-linux(?:-|$)/.test(name);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const DPKG_PACKAGE = /^[a-z0-9][a-z0-9+.-]*(?::[a-z0-9-]+)?$/;

/**
 * Parses `dpkg -S <path>...` output, `libssl3:amd64: /usr/lib/x86_64-linux-gnu/libssl.so.3`, into
 * path -> owning package without its architecture qualifier. A path several packages share
 * (`a, b: /usr/include`, usually a folder) goes to the first. `diversion by ...` lines and
 * `dpkg-query: no path found matching pattern ...` errors are skipped.
 */
export function parseDpkgSearch(output: string): Map<string, string> {
  const owners = new Map<string, string>();
  for (const line of output.split(/\r?\n/)) {
    // The package list never contains a slash, so the first `: /` ends it.
    const separator = line.indexOf(': /');
    if (separator < 0 || /^(?:dpkg|dpkg-query|diversion by|local diversion)\b/.test(line)) continue;
    const packages = line.slice(0, separator).split(',').map((p) => p.trim());
    if (packages.length === 0 || !packages.every((p) => DPKG_PACKAGE.test(p))) continue;
    const path = line.slice(separator + 2).trimEnd();
    if (!owners.has(path)) owners.set(path, packages[0].replace(/:.*$/, ''));
  }
  return owners;
}

/** With merged /usr, dpkg records a file under /lib or /usr/lib: answer for both spellings. */
export function dpkgOwnersBothWays(text: string): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [path, pkg] of parseDpkgSearch(text)) {
    owners.set(path, pkg);
    if (path.startsWith('/lib/')) owners.set('/usr' + path, pkg);
    else if (path.startsWith('/usr/lib/')) owners.set(path.slice(4), pkg);
  }
  return owners;
}
