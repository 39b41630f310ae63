import type { Language } from '../domain/instance';

/** Which column a name comes from: the C++ runtime column holds shared-object names. */
export type DependencyLayer = 'declared' | 'installed' | 'traced';

/** Values the EnvGap CSVs use for "nothing here". */
const EMPTY_MARKERS = new Set(['', 'none', 'n/a', '-']);

/** `pandas==2.2.2`, `numpy>=1.26`, `requests[socks]` -> the distribution name */
const PYTHON_SPEC_START = /[=<>!~[]/;
/** Maven coordinates are written `artifactId:version`, jar file names `artifactId-1.2.3.jar` */
const JAR_SUFFIX = /\.jar$/;
const JAR_VERSION_SUFFIX = /-\d[\w.-]*$/;
/** C++ runtime entries: `libcrypto`, `libz.so.1` -> `crypto`, `z` */
const SHARED_OBJECT_SUFFIX = /\.so.*$/;
const LIB_PREFIX = /^lib/;

/**
 * One dependency name as the EnvGap data set means it (its README and the paper's script): versions
 * and file-name decorations dropped, lower case, `_` read as `-`; null for an empty marker.
 * Python names get full PEP 503 normalisation (runs of `-`, `_`, `.` become `-`), as envgap's own
 * records do; on this data set that gives the same sets as the paper's `_` to `-` rule. Only the
 * C++ runtime column loses the `lib` prefix and `.so*` suffix: declared CMake names are kept as
 * written, as the paper compares them.
 */
export function dependencyName(raw: string, language: Language, layer: DependencyLayer): string | null {
  let name = raw.trim();
  if (EMPTY_MARKERS.has(name.toLowerCase())) return null;
  if (language === 'python') {
    name = name.split(PYTHON_SPEC_START)[0].trim().toLowerCase().replace(/[-_.]+/g, '-');
  } else if (language === 'java') {
    name = name.replace(JAR_SUFFIX, '');
    name = name.includes(':') ? name.split(':')[0] : name.replace(JAR_VERSION_SUFFIX, '');
  } else if (language === 'cpp' && layer === 'traced') {
    name = name.toLowerCase().replace(SHARED_OBJECT_SUFFIX, '').replace(LIB_PREFIX, '');
  }
  name = name.trim().toLowerCase().replace(/_/g, '-');
  return name === '' ? null : name;
}
