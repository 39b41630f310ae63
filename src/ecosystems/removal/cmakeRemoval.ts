import type { ProjectFiles } from '../../domain/files';
import { normalizeCppName } from '../cpp/manifestCommands';
import { cmakeSpans, type CMakeSpan, type CMakeSpanArgument } from './cmakeSpans';
import { removalOf, type Removal } from './removal';

const MANIFEST = 'CMakeLists.txt';

/** Commands whose arguments name what a target uses: a removed package's targets and variables go from them. */
const USES = new Set(['target_link_libraries', 'target_include_directories', 'target_compile_definitions', 'target_compile_options', 'link_libraries', 'include_directories']);
/** Their keywords, which name nothing. */
const USE_KEYWORDS = new Set(['PRIVATE', 'PUBLIC', 'INTERFACE', 'SYSTEM', 'BEFORE', 'AFTER', 'LINK_PRIVATE', 'LINK_PUBLIC', 'LINK_INTERFACE_LIBRARIES', 'debug', 'optimized', 'general']);
const PKG_FLAGS = new Set(['REQUIRED', 'QUIET', 'NO_CMAKE_PATH', 'NO_CMAKE_ENVIRONMENT_PATH', 'IMPORTED_TARGET', 'GLOBAL']);

interface Edit {
  start: number;
  end: number;
  /** A whole command: widened to its lines where it stands alone on them. */
  whole: boolean;
}

/**
 * CMakeLists.txt (the top-level file) without the packages of the given names (normalised as D1 has
 * them, src/ecosystems/cpp/manifestCommands.ts): their `find_package` and `FetchContent_Declare` (and
 * `FetchContent_MakeAvailable`/`_GetProperties`/`_Populate` of them), their modules of
 * `pkg_check_modules`/`pkg_search_module`, and what names their imported targets or result variables
 * where targets use them (`OpenSSL::Crypto`, `SQLite::SQLite3`, `${CURL_LIBRARIES}`,
 * `PkgConfig::<prefix>`), so that a package nothing uses builds without it. A FetchContent package's
 * own targets are named as its project chose and are left: a build that names them fails, as it
 * should, since the project uses them.
 */
export function withoutCmakePackages(files: ProjectFiles, names: readonly string[]): Removal {
  const text = files[MANIFEST];
  if (typeof text !== 'string') return removalOf(files, {}, names, []);
  const wanted = new Set(names);
  const spans = cmakeSpans(text);
  const edits: Edit[] = [];
  const removed = new Set<string>();
  /** Raw names as written (`OpenSSL`), and pkg-config prefixes, whose targets and variables go too. */
  const raws: string[] = [];
  const prefixes: string[] = [];
  const whole = (s: CMakeSpan) => edits.push({ start: s.start, end: s.end, whole: true });
  const dropArgs = (s: CMakeSpan, dropped: CMakeSpanArgument[], left: number) => {
    if (left === 0) whole(s);
    else for (const a of dropped) edits.push({ start: a.start, end: a.end, whole: false });
  };
  for (const s of spans) {
    const first = s.args[0]?.text;
    const named = first !== undefined && wanted.has(normalizeCppName(first));
    if ((s.name === 'find_package' || s.name === 'fetchcontent_declare' || s.name === 'fetchcontent_getproperties' || s.name === 'fetchcontent_populate') && named) {
      whole(s);
      removed.add(normalizeCppName(first!));
      raws.push(first!);
    } else if (s.name === 'fetchcontent_makeavailable') {
      const dropped = s.args.filter((a) => wanted.has(normalizeCppName(a.text)));
      for (const a of dropped) removed.add(normalizeCppName(a.text));
      if (dropped.length > 0) dropArgs(s, dropped, s.args.length - dropped.length);
    } else if (s.name === 'pkg_check_modules' || s.name === 'pkg_search_module') {
      const modules = s.args.slice(1).filter((a) => !PKG_FLAGS.has(a.text));
      const dropped = modules.filter((a) => wanted.has(normalizeCppName(moduleName(a.text))));
      for (const a of dropped) removed.add(normalizeCppName(moduleName(a.text)));
      if (dropped.length > 0) {
        dropArgs(s, dropped, modules.length - dropped.length);
        if (dropped.length === modules.length && first) prefixes.push(first);
      }
    }
  }
  if (removed.size === 0) return removalOf(files, {}, names, []);
  for (const s of spans) {
    if (!USES.has(s.name)) continue;
    // A target_* command's first argument is the target that uses, not what is used.
    const used = s.name.startsWith('target_') ? s.args.slice(1) : s.args;
    const dropped = used.filter((a) => namesRemoved(a.text, raws, prefixes));
    if (dropped.length === 0) continue;
    dropArgs(s, dropped, used.filter((a) => !dropped.includes(a) && !USE_KEYWORDS.has(a.text)).length);
  }
  return removalOf(files, { [MANIFEST]: applied(text, edits) }, names, names.filter((n) => removed.has(n)));
}

/** A pkg-config module spec without its version constraint (`zlib>=1.2`). */
function moduleName(spec: string): string {
  return spec.replace(/\s*(<=|>=|=|<|>).*$/s, '').trim();
}

/** Whether a use names a removed package: its imported target (`Raw::…`), a result variable (`${RAW_…}`), or a pkg-config prefix's. */
function namesRemoved(arg: string, raws: readonly string[], prefixes: readonly string[]): boolean {
  const ns = /^([A-Za-z0-9_.+-]+)::/.exec(arg)?.[1];
  if (ns !== undefined) {
    if (ns === 'PkgConfig') return prefixes.some((p) => arg === `PkgConfig::${p}`);
    const n = normalizeCppName(ns);
    return raws.some((r) => {
      const name = normalizeCppName(r);
      return n === name || n === name.replace(/\d+$/, '');
    });
  }
  if (!/^\$\{[A-Za-z0-9_]+\}$/.test(arg)) return false;
  return [...raws, ...prefixes].some((r) => arg.toLowerCase().startsWith(`\${${r.toLowerCase()}_`));
}

/** The text with the edits made, from the last to the first; whole commands take their lines where they stand alone. */
function applied(text: string, edits: Edit[]): string {
  // An argument of a command taken out whole goes with it.
  const unique = [...new Map(edits.map((e) => [`${e.start}:${e.end}`, e])).values()];
  const inside = (e: Edit, o: Edit) => o !== e && o.whole && o.start <= e.start && e.end <= o.end;
  const sorted = unique.filter((e) => !unique.some((o) => inside(e, o))).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) {
    let [from, to] = [e.start, e.end];
    if (e.whole) {
      const lineStart = out.lastIndexOf('\n', from - 1) + 1;
      const nl = out.indexOf('\n', to);
      const lineEnd = nl < 0 ? out.length : nl + 1;
      if (/^[ \t]*$/.test(out.slice(lineStart, from)) && /^[ \t]*(#[^\n]*)?\r?\n?$/.test(out.slice(to, lineEnd))) [from, to] = [lineStart, lineEnd];
    }
    out = out.slice(0, from) + out.slice(to);
  }
  return out;
}
