import { excerpt } from '../../text/excerpt';
import { ManifestError } from '../manifestError';
import { joinPosixPath, normalizePosixPath, posixDirname } from '../posixPath';
import { CMakeCommand, lexCMake } from './cmakeLexer';
import { CMakeVariables, splitList } from './manifestVariables';

export interface InterpreterHooks {
  /** Reads a file by its normalised POSIX path, relative to the same root as the top file; undefined when absent. */
  readInclude: (path: string) => string | undefined;
  /** Every command other than those the interpreter handles itself, with evaluated arguments. */
  onCommand: (name: string, args: string[], source: { file: string; line: number }) => void;
  warn: (message: string) => void;
}

interface Frame {
  /** The file being run, relative to the root, as messages name it. */
  file: string;
  /** CMAKE_CURRENT_SOURCE_DIR, an inside path: the directory whose CMakeLists.txt is being processed. */
  sourceDir: string;
  vars: CMakeVariables;
  /** Loop and call nesting, to bound recursion. */
  depth: number;
}

interface Callable {
  params: string[];
  body: CMakeCommand[];
  file: string;
}

// Paths inside the interpreter are absolute under a virtual root, as CMake's are, so that
// `${CMAKE_CURRENT_SOURCE_DIR}/x` is not joined to the current directory a second time.
const inside = (relative: string) => normalizePosixPath(`/${relative}`);
const outside = (absolute: string) => (absolute === '/' ? '.' : absolute.slice(1));

const MAX_DEPTH = 32;
const MAX_STEPS = 100_000;
const MAX_LOOP_ITEMS = 1_000;

/**
 * Runs the parts of CMake that decide which dependency commands a project executes, without running
 * CMake: `include`, `add_subdirectory`, variables, `foreach` loops, and calls of `function`s and
 * `macro`s defined in the project. Conditions are not evaluated: every branch of an `if` runs, so a
 * dependency found only `if(BUILD_TESTING)` still counts. Files are read once each.
 */
export class CMakeInterpreter {
  private readonly visited = new Set<string>();
  private readonly stack: string[] = [];
  private readonly callables = new Map<string, Callable>();
  private steps = 0;

  constructor(private readonly hooks: InterpreterHooks) {}

  run(text: string, fileName: string): void {
    const file = normalizePosixPath(fileName);
    const root = posixDirname(inside(file));
    const vars = new CMakeVariables();
    for (const name of ['CMAKE_SOURCE_DIR', 'PROJECT_SOURCE_DIR', 'CMAKE_CURRENT_SOURCE_DIR']) vars.set(name, root);
    this.runFile(text, file, { file, sourceDir: root, vars, depth: 0 });
  }

  private runFile(text: string, file: string, frame: Frame): void {
    this.visited.add(file);
    this.stack.push(file);
    const saved = ['CMAKE_CURRENT_LIST_DIR', 'CMAKE_CURRENT_LIST_FILE'].map((name) => [name, frame.vars.get(name)] as const);
    frame.vars.set('CMAKE_CURRENT_LIST_DIR', posixDirname(inside(file)));
    frame.vars.set('CMAKE_CURRENT_LIST_FILE', inside(file));
    this.runBlock(lexCMake(text, file), { ...frame, file });
    for (const [name, value] of saved) {
      if (value === undefined) frame.vars.unset(name);
      else frame.vars.set(name, value);
    }
    this.stack.pop();
  }

  private runBlock(commands: CMakeCommand[], frame: Frame): void {
    for (let i = 0; i < commands.length; i++) {
      if (++this.steps > MAX_STEPS) {
        if (this.steps === MAX_STEPS + 1) this.hooks.warn(`${frame.file}: more than ${MAX_STEPS} commands to run; the rest is not read`);
        return;
      }
      const command = commands[i];
      if (command.name === 'foreach' || command.name === 'function' || command.name === 'macro') {
        const end = blockEnd(commands, i, frame.file);
        const body = commands.slice(i + 1, end);
        if (command.name === 'foreach') this.runForeach(command, body, frame);
        else this.define(command, body, frame);
        i = end;
      } else {
        this.runCommand(command, frame);
      }
    }
  }

  private runCommand(command: CMakeCommand, frame: Frame): void {
    const args = frame.vars.evaluate(command.args);
    const source = { file: frame.file, line: command.line };
    switch (command.name) {
      case 'set':
        return assign(frame.vars, args);
      case 'unset':
        if (args[0] !== undefined) frame.vars.unset(args[0]);
        return;
      case 'option':
        if (args[0] !== undefined && frame.vars.get(args[0]) === undefined) frame.vars.set(args[0], args[2] ?? 'OFF');
        return;
      case 'list':
        return appendToList(frame.vars, args);
      case 'project':
        if (args[0] === undefined) return;
        frame.vars.set('PROJECT_NAME', args[0]);
        frame.vars.set('PROJECT_SOURCE_DIR', frame.sourceDir);
        frame.vars.set(`${args[0]}_SOURCE_DIR`, frame.sourceDir);
        if (frame.vars.get('CMAKE_PROJECT_NAME') === undefined) frame.vars.set('CMAKE_PROJECT_NAME', args[0]);
        return;
      case 'include':
        return this.include(args, source, frame);
      case 'add_subdirectory':
        return this.addSubdirectory(args, source, frame);
      default: {
        // A project's own function or macro of a dependency command's name wraps it: both count.
        this.hooks.onCommand(command.name, args, source);
        const callable = this.callables.get(command.name);
        if (callable) this.call(callable, args, frame);
      }
    }
  }

  /**
   * `include(<file|module>)`. A bare name such as FetchContent or CTest is a module: looked up in
   * CMAKE_MODULE_PATH, and otherwise one of CMake's own, skipped quietly. A file is looked up relative
   * to the current source directory (CMake's rule), then to the including file's directory.
   */
  private include(args: string[], source: { file: string; line: number }, frame: Frame): void {
    const target = args[0];
    if (target === undefined) throw new ManifestError(source.file, source.line, 'include() names no file');
    const isModule = !target.includes('/') && !target.endsWith('.cmake');
    const candidates = isModule
      ? splitList(frame.vars.get('CMAKE_MODULE_PATH') ?? '').map((dir) => joinPosixPath(joinPosixPath(frame.sourceDir, dir), `${target}.cmake`))
      : [joinPosixPath(frame.sourceDir, target), joinPosixPath(posixDirname(inside(frame.file)), target)];
    const found = this.read(candidates);
    if (!found) {
      if (!isModule && !args.includes('OPTIONAL')) this.hooks.warn(`${source.file}:${source.line}: include(${excerpt(target)}): file not found; its dependencies are not counted`);
      return;
    }
    if (this.skipRepeat(found.path, source)) return;
    this.runFile(found.text, found.path, frame);
  }

  /** `add_subdirectory(<dir>)`: runs `<dir>/CMakeLists.txt` in a child scope. */
  private addSubdirectory(args: string[], source: { file: string; line: number }, frame: Frame): void {
    const dir = args[0];
    if (dir === undefined) throw new ManifestError(source.file, source.line, 'add_subdirectory() names no directory');
    const sourceDir = joinPosixPath(frame.sourceDir, dir);
    const found = this.read([joinPosixPath(sourceDir, 'CMakeLists.txt')]);
    if (!found) {
      this.hooks.warn(`${source.file}:${source.line}: add_subdirectory(${excerpt(dir)}): ${excerpt(outside(joinPosixPath(sourceDir, 'CMakeLists.txt')))} not found; its dependencies are not counted`);
      return;
    }
    if (this.skipRepeat(found.path, source)) return;
    const vars = frame.vars.child();
    vars.set('CMAKE_CURRENT_SOURCE_DIR', sourceDir);
    this.runFile(found.text, found.path, { file: found.path, sourceDir, vars, depth: frame.depth });
  }

  /** The first candidate (inside paths) that can be read, by its path relative to the root. */
  private read(candidates: string[]): { path: string; text: string } | null {
    for (const path of candidates.map(outside)) {
      const text = this.hooks.readInclude(path);
      // typeof, not === undefined: a reader backed by a plain object would return its prototype's members.
      if (typeof text === 'string') return { path, text };
    }
    return null;
  }

  private skipRepeat(path: string, source: { file: string; line: number }): boolean {
    if (this.stack.includes(path)) {
      this.hooks.warn(`${source.file}:${source.line}: include cycle through ${excerpt(path)} ignored`);
      return true;
    }
    return this.visited.has(path);
  }

  /** `foreach(<var> <items>...)`, `IN LISTS`/`IN ITEMS`, `RANGE`; a form not understood runs its body once, unbound. */
  private runForeach(command: CMakeCommand, body: CMakeCommand[], frame: Frame): void {
    if (frame.depth >= MAX_DEPTH) return;
    const [name, ...rest] = frame.vars.evaluate(command.args);
    const items = name === undefined ? null : loopItems(rest, frame.vars);
    const inner = { ...frame, depth: frame.depth + 1 };
    if (items === null || name === undefined) return this.runBlock(body, inner);
    const saved = frame.vars.get(name);
    for (const item of items.slice(0, MAX_LOOP_ITEMS)) {
      frame.vars.set(name, item);
      this.runBlock(body, inner);
    }
    if (saved === undefined) frame.vars.unset(name);
    else frame.vars.set(name, saved);
  }

  private define(command: CMakeCommand, body: CMakeCommand[], frame: Frame): void {
    const [name, ...params] = frame.vars.evaluate(command.args);
    if (name === undefined) throw new ManifestError(frame.file, command.line, `${command.name}() has no name`);
    this.callables.set(name.toLowerCase(), { params, body, file: frame.file });
  }

  /** A function runs in a child scope; a macro's parameters are substituted in its caller's scope, approximated the same way. */
  private call(callable: Callable, args: string[], frame: Frame): void {
    if (frame.depth >= MAX_DEPTH) return;
    const vars = frame.vars.child();
    callable.params.forEach((param, k) => vars.set(param, args[k] ?? ''));
    args.forEach((arg, k) => vars.set(`ARGV${k}`, arg));
    vars.set('ARGC', String(args.length));
    vars.set('ARGV', args.join(';'));
    vars.set('ARGN', args.slice(callable.params.length).join(';'));
    this.runBlock(callable.body, { ...frame, file: callable.file, vars, depth: frame.depth + 1 });
  }
}

/** The index of the `end<name>` closing the block opened at `start`. */
function blockEnd(commands: CMakeCommand[], start: number, file: string): number {
  const open = commands[start].name;
  let depth = 0;
  for (let i = start; i < commands.length; i++) {
    if (commands[i].name === open) depth++;
    else if (commands[i].name === `end${open}` && --depth === 0) return i;
  }
  throw new ManifestError(file, commands[start].line, `${open}() has no matching end${open}()`);
}

/** `set(<var> <value>... [CACHE <type> <doc> [FORCE]] [PARENT_SCOPE])`; a cache entry does not replace a value. */
function assign(vars: CMakeVariables, args: string[]): void {
  const [name, ...rest] = args;
  if (name === undefined) return;
  const cache = rest.indexOf('CACHE');
  const end = cache >= 0 ? cache : rest.includes('PARENT_SCOPE') ? rest.indexOf('PARENT_SCOPE') : rest.length;
  const values = rest.slice(0, end);
  if (cache >= 0 && vars.get(name) !== undefined && !rest.includes('FORCE')) return;
  if (values.length === 0) vars.unset(name);
  else vars.set(name, values.join(';'));
}

function appendToList(vars: CMakeVariables, args: string[]): void {
  const [operation, name, ...items] = args;
  if (name === undefined || (operation !== 'APPEND' && operation !== 'PREPEND')) return;
  const current = splitList(vars.get(name) ?? '');
  vars.set(name, (operation === 'APPEND' ? [...current, ...items] : [...items, ...current]).join(';'));
}

function loopItems(rest: string[], vars: CMakeVariables): string[] | null {
  if (rest[0] === 'RANGE') {
    const numbers = rest.slice(1).map(Number);
    if (numbers.length === 0 || numbers.length > 3 || numbers.some((n) => !Number.isInteger(n))) return null;
    const [start, stop, step] = numbers.length === 1 ? [0, numbers[0], 1] : [numbers[0], numbers[1], numbers[2] ?? 1];
    if (step <= 0) return null;
    const items: string[] = [];
    for (let n = start; n <= stop && items.length < MAX_LOOP_ITEMS; n += step) items.push(String(n));
    return items;
  }
  if (rest[0] !== 'IN') return rest;
  const items: string[] = [];
  let mode: 'LISTS' | 'ITEMS' | null = null;
  for (const arg of rest.slice(1)) {
    if (arg === 'LISTS' || arg === 'ITEMS') mode = arg;
    else if (arg === 'ZIP_LISTS') return null;
    else if (mode === 'LISTS') items.push(...splitList(vars.get(arg) ?? ''));
    else if (mode === 'ITEMS') items.push(arg);
  }
  return items;
}
