import { normalizePosixPath } from './posixPath';

/**
 * One line of `strace -f -o FILE` output, after the optional `1234  ` or `[pid 1234] ` prefix and an
 * optional `-t`/`-tt`/`-ttt` timestamp.
 * - `call`: a complete call, `openat(AT_FDCWD, "/x", O_RDONLY) = 3`
 * - `unfinished`: the first half of a call another process interrupted, without ` <unfinished ...>`
 * - `resumed`: the second half, the text after `<... openat resumed>`
 * - `other`: signals (`--- SIGCHLD ...`), exits (`+++ exited with 0 +++`), strace's own notes, blank lines
 */
export type StraceLine =
  | { kind: 'call'; pid: number | null; syscall: string; text: string }
  | { kind: 'unfinished'; pid: number | null; syscall: string; text: string }
  | { kind: 'resumed'; pid: number | null; syscall: string; text: string }
  | { kind: 'other'; pid: number | null; text: string };

const PREFIX = /^(?:\[pid\s+(\d+)\]\s+|(\d+)\s+)?(?:\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\s+|\d+\.\d+\s+)?/;
const RESUMED = /^<\.\.\. (\w+) resumed>(.*)$/;
const UNFINISHED = /\s*<unfinished \.\.\.>\s*$/;
const CALL = /^(\w+)\(/;

export function parseStraceLine(line: string): StraceLine {
  const trimmed = line.trim();
  const prefix = PREFIX.exec(trimmed)!;
  const pidText = prefix[1] ?? prefix[2];
  const pid = pidText === undefined ? null : Number(pidText);
  const body = trimmed.slice(prefix[0].length);

  const resumed = RESUMED.exec(body);
  if (resumed) return { kind: 'resumed', pid, syscall: resumed[1], text: resumed[2] };
  const call = CALL.exec(body);
  if (!call) return { kind: 'other', pid, text: body };
  if (UNFINISHED.test(body)) return { kind: 'unfinished', pid, syscall: call[1], text: body.replace(UNFINISHED, '') };
  return { kind: 'call', pid, syscall: call[1], text: body };
}

const FILE_SYSCALLS = new Set(['open', 'openat', 'execve']);

export interface FileCall {
  syscall: string;
  /** The path argument as the process passed it (escapes decoded), not normalised. */
  path: string;
  /** The return value, null when strace shows `?`. */
  result: number | null;
}

/** The path and result of a complete open/openat/execve call; null for other calls or truncated paths. */
export function parseFileCall(text: string): FileCall | null {
  const call = CALL.exec(text);
  if (!call || !FILE_SYSCALLS.has(call[1])) return null;
  // The path is the first quoted argument: openat's dirfd (AT_FDCWD or a number) is never quoted.
  const quote = text.indexOf('"', call[0].length);
  if (quote < 0) return null;
  const path = readQuotedString(text, quote);
  if (path === null) return null;
  const results = [...text.slice(path.end).matchAll(/\)\s*=\s*(-?\d+|\?)/g)];
  if (results.length === 0) return null;
  const result = results[results.length - 1][1];
  return { syscall: call[1], path: path.value, result: result === '?' ? null : Number(result) };
}

/**
 * The unique absolute paths that open/openat/execve calls opened successfully (result >= 0), normalised,
 * in first-seen order. Relative paths are left out: their directory is not known from the call.
 */
export function parseStraceOpenedFiles(log: string): string[] {
  const opened = new Set<string>();
  const pending = new Map<string, string>();
  for (const line of log.split(/\r?\n/)) {
    const parsed = parseStraceLine(line);
    let text: string;
    if (parsed.kind === 'call') {
      text = parsed.text;
    } else if (parsed.kind === 'unfinished') {
      pending.set(`${parsed.pid}:${parsed.syscall}`, parsed.text);
      continue;
    } else if (parsed.kind === 'resumed') {
      const key = `${parsed.pid}:${parsed.syscall}`;
      const start = pending.get(key);
      pending.delete(key);
      if (start === undefined) continue;
      text = start + parsed.text;
    } else {
      continue;
    }
    const fileCall = parseFileCall(text);
    if (fileCall && fileCall.result !== null && fileCall.result >= 0 && fileCall.path.startsWith('/')) {
      opened.add(normalizePosixPath(fileCall.path));
    }
  }
  return [...opened];
}

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder();
const SIMPLE_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, a: 7, b: 8, '"': 34, '\\': 92, "'": 39 };

/**
 * Decodes the C-style string strace printed from `text[start]` (a `"`): octal and hex escapes are
 * bytes, decoded together as UTF-8. Null when unterminated or truncated (`"..."...`).
 */
function readQuotedString(text: string, start: number): { value: string; end: number } | null {
  // Fast path, nearly every path: no escape before the next quote, so that quote closes the string.
  const close = text.indexOf('"', start + 1);
  if (close >= 0 && text.lastIndexOf('\\', close) < start) {
    return text.startsWith('...', close + 1) ? null : { value: text.slice(start + 1, close), end: close + 1 };
  }
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      if (text.startsWith('...', i + 1)) return null;
      return { value: UTF8_DECODER.decode(new Uint8Array(bytes)), end: i + 1 };
    }
    if (ch !== '\\') {
      const character = String.fromCodePoint(text.codePointAt(i)!);
      bytes.push(...UTF8_ENCODER.encode(character));
      i += character.length;
      continue;
    }
    const next = text[i + 1];
    const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4));
    const hex = next === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2, i + 4)) : null;
    if (octal) {
      bytes.push(parseInt(octal[0], 8) & 0xff);
      i += 1 + octal[0].length;
    } else if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2 + hex[0].length;
    } else if (next !== undefined && next in SIMPLE_ESCAPES) {
      bytes.push(SIMPLE_ESCAPES[next]);
      i += 2;
    } else {
      bytes.push(92);
      i++;
    }
  }
  return null;
}
