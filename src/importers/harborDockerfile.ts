import * as path from 'node:path';

/**
 * What a Harbor task's environment/Dockerfile does, as far as envgap can take it over: where the
 * repository lands (WORKDIR), what is copied into the image from the build context, which git
 * repository is cloned at which commit, and every other step, which envgap's readiness image does not
 * run (its RUN, ENV and USER lines). Only the final stage of a multi-stage file counts.
 */
export interface DockerfilePlan {
  /** The final stage's FROM image. */
  base: string | null;
  /** The final WORKDIR (absolute), or null where none is set. */
  workdir: string | null;
  /** Files and folders copied from the build context: `from` relative to it, `to` absolute in the image. */
  copies: DockerCopy[];
  /** `git clone URL DIR` (DIR absolute), with the commit checked out after it, where one is. */
  clones: DockerClone[];
  /** Steps that change the image and that the readiness protocol's own image does not take over. */
  unconverted: DockerStep[];
}

/**
 * A COPY or ADD source. Docker copies a folder's contents into `to`; a file becomes `to` itself, or
 * `to/<its name>` where `toFolder` (a destination ending in "/", or several sources).
 */
export interface DockerCopy {
  from: string;
  to: string;
  toFolder: boolean;
  line: number;
}

export interface DockerClone {
  url: string;
  dir: string;
  commit: string | null;
  line: number;
}

export interface DockerStep {
  line: number;
  text: string;
  why: string;
}

interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

/** Logical instructions: continuation lines joined, comments and blank lines dropped, heredoc bodies attached. */
function instructions(text: string): Instruction[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: Instruction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!;
    if (/^\s*(#|$)/.test(first)) continue;
    const start = i + 1;
    let joined = first;
    while (/\\\s*$/.test(joined) && i + 1 < lines.length) {
      joined = joined.replace(/\\\s*$/, ' ');
      i++;
      if (/^\s*#/.test(lines[i]!)) continue;
      joined += lines[i]!;
    }
    const heredoc = /<<-?\s*["']?([A-Za-z_][A-Za-z0-9_]*)["']?/.exec(joined);
    if (heredoc) {
      const end = heredoc[1]!;
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== end) joined += '\n' + lines[++i]!;
      if (i + 1 < lines.length) joined += '\n' + lines[++i]!;
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(joined);
    if (m) out.push({ line: start, keyword: m[1]!.toUpperCase(), args: m[2]!.trim() });
  }
  return out;
}

/** The words of an instruction: its JSON form, or words split on blanks (quotes honoured). */
function words(args: string): string[] {
  if (args.startsWith('[')) {
    try {
      const v = JSON.parse(args) as unknown;
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
    } catch {
      // not JSON: the shell form
    }
  }
  return shellWords(args);
}

/** Words as a POSIX shell splits them, for the simple cases a Dockerfile line holds. */
export function shellWords(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      cur += s.slice(i + 1, end < 0 ? s.length : end);
      i = end < 0 ? s.length : end;
      has = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < s.length && s[j] !== '"'; j++) cur += s[j] === '\\' && j + 1 < s.length ? s[++j] : s[j];
      i = j;
      has = true;
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}

const SHA = /^[0-9a-f]{7,40}$/;
/** `git clone` options that take a value as the next word. */
const CLONE_VALUE_FLAGS = new Set(['-b', '--branch', '--depth', '-o', '--origin', '-c', '--config', '--reference', '-j', '--jobs', '--shallow-since', '--shallow-exclude', '--filter', '-u', '--upload-pack', '--separate-git-dir']);

function resolveIn(dir: string, p: string): string {
  return path.posix.resolve(dir, p);
}

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? `${one.slice(0, 117)}...` : one;
}

/** A RUN line's shell commands, split on `&&`, `;` and `||` (outside quotes), for recognising git clone and checkout. */
function segments(script: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (quote) {
      cur += c;
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if ((c === '&' && script[i + 1] === '&') || (c === '|' && script[i + 1] === '|')) {
      out.push(cur);
      cur = '';
      i++;
    } else if (c === ';' || c === '\n') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Reads the Dockerfile's final stage. */
export function parseDockerfile(text: string): DockerfilePlan {
  const all = instructions(text);
  let lastFrom = -1;
  all.forEach((ins, i) => {
    if (ins.keyword === 'FROM') lastFrom = i;
  });
  const plan: DockerfilePlan = { base: null, workdir: null, copies: [], clones: [], unconverted: [] };
  let cwd = '/';
  for (const ins of all.slice(Math.max(lastFrom, 0))) {
    const w = words(ins.args);
    switch (ins.keyword) {
      case 'FROM': {
        const image = w.filter((x) => !x.startsWith('--'))[0] ?? null;
        plan.base = image;
        break;
      }
      case 'WORKDIR':
        cwd = resolveIn(cwd, w[0] ?? '/');
        plan.workdir = cwd;
        break;
      case 'COPY':
      case 'ADD': {
        const flags = w.filter((x) => x.startsWith('--'));
        const rest = w.filter((x) => !x.startsWith('--'));
        const from = flags.find((f) => f.startsWith('--from='));
        if (from || rest.length < 2) {
          plan.unconverted.push({ line: ins.line, text: short(`${ins.keyword} ${ins.args}`), why: from ? 'copies from another stage or image' : 'names no source and destination' });
          break;
        }
        const dest = rest[rest.length - 1]!;
        const to = resolveIn(cwd, dest);
        for (const src of rest.slice(0, -1)) {
          if (/^[a-z]+:\/\//i.test(src) || src.startsWith('git@')) {
            plan.unconverted.push({ line: ins.line, text: short(`${ins.keyword} ${src} ${dest}`), why: 'fetches from the network at build time' });
            continue;
          }
          if (/[*?[]/.test(src)) {
            plan.unconverted.push({ line: ins.line, text: short(`${ins.keyword} ${src} ${dest}`), why: 'a wildcard source' });
            continue;
          }
          if (ins.keyword === 'ADD' && /\.(tar|tar\.gz|tgz|tar\.bz2|tar\.xz)$/.test(src)) {
            plan.unconverted.push({ line: ins.line, text: short(`ADD ${src} ${dest}`), why: 'an archive ADD unpacks into the image' });
            continue;
          }
          const rel = path.posix.normalize(src).replace(/^\/+/, '').replace(/\/+$/, '') || '.';
          plan.copies.push({ from: rel, to, toFolder: dest.endsWith('/') || dest === '.' || rest.length > 2, line: ins.line });
        }
        break;
      }
      case 'RUN':
        runStep(ins, w, cwd, plan);
        break;
      case 'ENV':
        plan.unconverted.push({ line: ins.line, text: short(`ENV ${ins.args}`), why: 'sets variables of the image' });
        break;
      case 'USER':
        plan.unconverted.push({ line: ins.line, text: short(`USER ${ins.args}`), why: 'envgap runs the session and the probes as root' });
        break;
      default:
        // ARG, LABEL, EXPOSE, CMD, ENTRYPOINT, HEALTHCHECK, VOLUME, STOPSIGNAL, SHELL, ONBUILD: nothing of the environment.
        break;
    }
  }
  return plan;
}

/** A RUN line: git clone and checkout taken over, the rest listed. */
function runStep(ins: Instruction, w: string[], cwd: string, plan: DockerfilePlan): void {
  const script = ins.args.startsWith('[') ? w.slice(w.findIndex((x) => x === '-c') + 1).join(' ') : ins.args;
  if (/<</.test(script)) {
    plan.unconverted.push({ line: ins.line, text: short(`RUN ${script}`), why: 'a RUN step the readiness image does not run' });
    return;
  }
  let dir = cwd;
  const left: string[] = [];
  for (const seg of segments(script)) {
    const sw = shellWords(seg);
    if (sw[0] === 'cd' && sw.length <= 2) {
      dir = resolveIn(dir, sw[1] ?? '/root');
      continue;
    }
    let gitDir = dir;
    let args = sw;
    if (args[0] === 'git' && args[1] === '-C' && args[2]) {
      gitDir = resolveIn(dir, args[2]);
      args = ['git', ...args.slice(3)];
    }
    if (args[0] === 'git' && args[1] === 'clone') {
      const positional: string[] = [];
      for (let i = 2; i < args.length; i++) {
        const a = args[i]!;
        if (CLONE_VALUE_FLAGS.has(a)) i++;
        else if (!a.startsWith('-')) positional.push(a);
      }
      const url = positional[0];
      if (!url) {
        left.push(seg);
        continue;
      }
      const name = positional[1] ?? path.posix.basename(url).replace(/\.git$/, '');
      plan.clones.push({ url, dir: resolveIn(gitDir, name), commit: null, line: ins.line });
      continue;
    }
    const checkout = args[0] === 'git' && (args[1] === 'checkout' || (args[1] === 'reset' && args[2] === '--hard') || args[1] === 'switch') ? args.slice(args[1] === 'reset' ? 3 : 2).filter((a) => !a.startsWith('-')) : null;
    if (checkout && checkout.length === 1 && SHA.test(checkout[0]!)) {
      const clone = [...plan.clones].reverse().find((c) => c.dir === gitDir || gitDir.startsWith(`${c.dir}/`));
      if (clone) {
        clone.commit = checkout[0]!;
        continue;
      }
    }
    left.push(seg);
  }
  if (left.length > 0) plan.unconverted.push({ line: ins.line, text: short(`RUN ${left.join(' && ')}`), why: 'a RUN step the readiness image does not run' });
}
