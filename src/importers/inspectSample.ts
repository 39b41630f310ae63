import * as path from 'node:path';
import { NOT_PROJECT_DIRS } from '../agents/confined/workspaceHygiene';
import { LANGUAGES } from '../domain/instance';
import { MANIFEST_FILE } from '../ecosystems/manifestFiles';

/**
 * One sample of an Inspect AI log (inspect_ai.log.EvalSample) as the files its agent left: where the
 * sample's store or metadata holds a map of files (a key `files` or `workspace`, or a StoreModel's
 * `<Model>:files`), that map; else the files its events wrote, in order: the text_editor tool's
 * create, str_replace and insert (and a tool whose name says it writes a file, given a path and a
 * content), and the sandbox's write_file where the log holds the content whole. What cannot be known
 * (a file changed by a shell command, an edit of a file whose content the log lacks, a write the log
 * truncated) is said, per file.
 */
export interface InspectSampleFiles {
  id: string;
  epoch: number;
  /** Paths as the sample recorded them (absolute, or relative to the sandbox's working directory). */
  files: { path: string; content: string }[];
  source: 'store' | 'metadata' | 'events';
  /** What of the sample's work is not in `files`, and why. */
  problems: string[];
  /** The sample's input as text: the prompt the agent was given. */
  prompt: string;
  tokens: { input: number | null; output: number | null; costUsd: number | null };
  /** What Inspect recorded of the sample, kept beside the project: its scores, error, limit. */
  record: Record<string, unknown>;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const ATTACHMENT = 'attachment://';

/** Replaces Inspect's `attachment://<hash>` references (texts over 100 characters in events and messages) with the sample's attachments. */
function resolveAttachments(value: Json, attachments: Obj, missing: Set<string>): Json {
  if (typeof value === 'string') {
    if (!value.startsWith(ATTACHMENT)) return value;
    const hash = value.slice(ATTACHMENT.length);
    const text = attachments[hash];
    if (typeof text === 'string') return text;
    missing.add(hash);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments, missing));
  if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveAttachments(v, attachments, missing)]));
  return value;
}

/** A message's text: a string, or its content parts of type text. */
function messageText(m: Json): string {
  if (!isObj(m)) return '';
  const c = m.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.flatMap((p) => (isObj(p) && p.type === 'text' && typeof p.text === 'string' ? [p.text] : [])).join('\n');
  return '';
}

function promptOf(input: Json): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) return input.filter((m) => isObj(m) && (m.role === 'user' || m.role === 'system')).map(messageText).filter(Boolean).join('\n\n');
  return '';
}

/** A map of path -> text under a store or metadata key named files/workspace (a StoreModel's keys are `<Model>:<field>`). */
function filesMap(holder: Json | undefined): { key: string; files: { path: string; content: string }[] } | null {
  if (!isObj(holder)) return null;
  for (const [key, value] of Object.entries(holder)) {
    if (!/(^|[:.])(files|workspace)$/i.test(key) || !isObj(value)) continue;
    const entries = Object.entries(value);
    if (entries.length > 0 && entries.every(([p, c]) => typeof c === 'string' && p.length > 0 && !p.includes('\0'))) return { key, files: entries.map(([p, c]) => ({ path: p, content: c as string })) };
  }
  return null;
}

/** What Inspect writes for a sandbox write_file it did not keep whole (util/_sandbox/events.py, content_display). */
function sandboxWriteProblem(input: string): string | null {
  if (/^binary \(\d+(\.\d+)? (B|KB|MB)\)$/.test(input)) return 'a binary file (the log keeps only its size)';
  if (/\n\nOutput truncated \(\d+ additional lines\)$/.test(input)) return 'the log keeps only its first 20 lines';
  if (input.length >= 10_000 && input.endsWith('...')) return 'the log keeps only its first 10,000 characters';
  return null;
}

type FileState = { content: string } | { unknown: string };

const SHELL_TOOLS = /^(bash|python|bash_session|shell|exec|run_command|execute|terminal|computer)$/;
const PATH_ARGS = ['path', 'file_path', 'filename', 'file'];
const CONTENT_ARGS = ['content', 'file_text', 'contents', 'text'];

/** Plays the sample's events' file writes on a map of paths. */
function replayEvents(events: Json[], problems: string[]): Map<string, FileState> {
  const files = new Map<string, FileState>();
  const commands = new Map<string, number>();
  let failed = 0;
  const norm = (p: string) => path.posix.normalize(p);
  const edit = (p: string, why: string, fn: (text: string) => string | null) => {
    const at = norm(p);
    const s = files.get(at);
    if (!s || !('content' in s)) {
      files.set(at, { unknown: s && 'unknown' in s ? s.unknown : `${why} a file whose content the log does not hold (the task's own, or written by a command)` });
      return;
    }
    const next = fn(s.content);
    files.set(at, next === null ? { unknown: `${why} that did not apply to the content replayed` } : { content: next });
  };
  const walk = (list: Json[]) => {
    for (const e of list) {
      if (!isObj(e)) continue;
      if (e.event === 'tool') {
        const fn = str(e.function) ?? '';
        const args = isObj(e.arguments) ? e.arguments : {};
        if (e.error !== undefined && e.error !== null) failed++;
        else if (fn === 'text_editor') {
          const p = str(args.path);
          const cmd = str(args.command);
          if (p && cmd === 'create' && typeof args.file_text === 'string') files.set(norm(p), { content: args.file_text });
          else if (p && cmd === 'str_replace' && typeof args.old_str === 'string') {
            const oldStr = args.old_str;
            const newStr = str(args.new_str) ?? '';
            edit(p, 'a str_replace on', (t) => (t.split(oldStr).length === 2 ? t.replace(oldStr, () => newStr) : null));
          } else if (p && cmd === 'insert' && typeof args.insert_line === 'number') {
            const text = str(args.insert_text) ?? str(args.new_str) ?? '';
            const line = args.insert_line;
            edit(p, 'an insert into', (t) => {
              const lines = t.split('\n');
              if (line < 0 || line > lines.length) return null;
              lines.splice(line, 0, ...text.split('\n'));
              return lines.join('\n');
            });
          } else if (p && cmd === 'undo_edit') files.set(norm(p), { unknown: 'an undo_edit (the edit it undid is not known to the log)' });
        } else if (SHELL_TOOLS.test(fn)) commands.set(fn, (commands.get(fn) ?? 0) + 1);
        else if (/write|create|save/i.test(fn)) {
          const p = PATH_ARGS.map((k) => str(args[k])).find((v) => v);
          const c = CONTENT_ARGS.map((k) => str(args[k])).find((v) => v !== null && v !== undefined);
          if (p && typeof c === 'string') files.set(norm(p), { content: c });
          else problems.push(`tool ${fn}: no path and content among its arguments, not replayed`);
        }
        if (Array.isArray(e.events)) walk(e.events);
      } else if (e.event === 'sandbox' && e.action === 'write_file' && typeof e.file === 'string' && typeof e.input === 'string') {
        const why = sandboxWriteProblem(e.input);
        files.set(norm(e.file), why ? { unknown: `a sandbox write_file of which ${why}` } : { content: e.input });
      } else if (Array.isArray(e.events)) walk(e.events);
    }
  };
  walk(events);
  if (commands.size > 0) problems.push(`${[...commands].map(([f, n]) => `${n} ${f} call${n > 1 ? 's' : ''}`).join(', ')} not replayed: files they wrote or changed (a heredoc, pip freeze > requirements.txt, sed -i) are not in the project`);
  if (failed > 0) problems.push(`${failed} tool call${failed > 1 ? 's' : ''} that failed, left out`);
  return files;
}

function usage(u: Json | undefined): InspectSampleFiles['tokens'] {
  if (!isObj(u) || Object.keys(u).length === 0) return { input: null, output: null, costUsd: null };
  const models = Object.values(u).filter(isObj);
  const sum = (k: string) => (models.some((m) => typeof m[k] === 'number') ? models.reduce((n, m) => n + (typeof m[k] === 'number' ? (m[k] as number) : 0), 0) : null);
  return { input: sum('input_tokens'), output: sum('output_tokens'), costUsd: sum('total_cost') };
}

/** The files one sample's agent left, and what of them the log cannot give. */
export function inspectSampleFiles(raw: unknown, where: string): InspectSampleFiles {
  if (!isObj(raw as Json)) throw new Error(`${where}: a sample is a JSON object`);
  const attachments = isObj((raw as Obj).attachments) ? ((raw as Obj).attachments as Obj) : {};
  const missing = new Set<string>();
  const sample = resolveAttachments(raw as Json, attachments, missing) as Obj;
  const id = typeof sample.id === 'string' || typeof sample.id === 'number' ? String(sample.id) : null;
  if (id === null) throw new Error(`${where}: the sample has no id`);
  const epoch = typeof sample.epoch === 'number' ? sample.epoch : 1;
  const problems: string[] = [];
  if (missing.size > 0) problems.push(`${missing.size} attachment reference${missing.size > 1 ? 's' : ''} without the attachment (texts left as references)`);
  let files: { path: string; content: string }[] = [];
  let source: InspectSampleFiles['source'] = 'events';
  const fromStore = filesMap(sample.store);
  const fromMetadata = fromStore ? null : filesMap(sample.metadata);
  if (fromStore || fromMetadata) {
    source = fromStore ? 'store' : 'metadata';
    files = (fromStore ?? fromMetadata)!.files;
  } else {
    const state = replayEvents(Array.isArray(sample.events) ? sample.events : [], problems);
    for (const [p, s] of [...state].sort(([a], [b]) => a.localeCompare(b))) {
      if ('content' in s) files.push({ path: p, content: s.content });
      else problems.push(`${p}: ${s.unknown}`);
    }
    if (!Array.isArray(sample.events) || sample.events.length === 0) problems.push('the sample has no events (a log written with events left out?)');
  }
  const error = isObj(sample.error) ? str(sample.error.message) : null;
  if (error) problems.push(`the sample ended in error: ${error.split('\n')[0]!.slice(0, 200)}`);
  const scores = isObj(sample.scores) ? Object.fromEntries(Object.entries(sample.scores).map(([k, v]) => [k, isObj(v) ? (v.value ?? null) : null])) : null;
  return {
    id,
    epoch,
    files,
    source,
    problems,
    prompt: promptOf(sample.input ?? ''),
    tokens: usage(sample.model_usage),
    record: { id, epoch, scores, error, limit: sample.limit ?? null, files_from: source, total_time: sample.total_time ?? null },
  };
}

const MANIFESTS = new Set(LANGUAGES.map((l) => MANIFEST_FILE[l]));

/**
 * The project's root and its files relative to it: the working directory where given; else the folder
 * of the shallowest manifest written (requirements.txt, package.json, pom.xml, CMakeLists.txt), else
 * the deepest folder holding every absolute path. Relative paths are the working directory's.
 */
export function projectFiles(files: readonly { path: string; content: string }[], workdir: string | null): { root: string; files: { rel: string; content: string }[]; problems: string[] } {
  const abs = files.filter((f) => f.path.startsWith('/')).map((f) => f.path);
  let root: string;
  if (workdir) root = path.posix.normalize(workdir);
  else {
    const manifests = abs.filter((p) => MANIFESTS.has(path.posix.basename(p))).sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
    if (manifests.length > 0) root = path.posix.dirname(manifests[0]!);
    else if (abs.length > 0) {
      const parts = abs.map((p) => path.posix.dirname(p).split('/'));
      const common: string[] = [];
      for (let i = 0; parts.every((p) => i < p.length && p[i] === parts[0]![i]); i++) common.push(parts[0]![i]!);
      root = common.join('/') || '/';
    } else root = '.';
  }
  const problems: string[] = [];
  const out: { rel: string; content: string }[] = [];
  for (const f of files) {
    const rel = f.path.startsWith('/') ? path.posix.relative(root === '.' ? '/' : root, f.path) : path.posix.normalize(f.path);
    if (rel === '' || rel.startsWith('..') || rel.startsWith('/')) {
      problems.push(`${f.path}: outside the project's root ${root}`);
      continue;
    }
    if (rel.split('/').some((seg) => (NOT_PROJECT_DIRS as readonly string[]).includes(seg))) {
      problems.push(`${f.path}: in a folder that is not the project's (a virtual environment, node_modules, a cache)`);
      continue;
    }
    out.push({ rel, content: f.content });
  }
  return { root, files: out, problems };
}
