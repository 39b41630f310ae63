import { parseCMakeCommands } from './entryCommands';

const TEST_TARGET = /(?:^|[^a-z])(?:tests?|unittests?|benchmarks?)(?:$|[^a-z])|tests?$/i;
const VARIABLE = /\$\{([A-Za-z0-9_.+-]+)\}/g;

/**
 * The name of the executable target to run: the first `add_executable(<name> ...)` that is neither
 * IMPORTED nor ALIAS, preferring one whose name does not look like tests or benchmarks. `${VAR}` in
 * the name is expanded from `project()` (PROJECT_NAME, CMAKE_PROJECT_NAME) and single-value `set()`
 * calls seen before it; a name that still holds a reference is skipped. Null when there is none.
 */
export function chooseCppExecutable(cmakeLists: string): CppEntryChoice {
  const variables = new Map<string, string>();
  const targets: string[] = [];
  for (const { name, args } of parseCMakeCommands(cmakeLists)) {
    if (name === 'project' && args.length > 0) {
      const project = expand(args[0], variables);
      variables.set('PROJECT_NAME', project);
      if (!variables.has('CMAKE_PROJECT_NAME')) variables.set('CMAKE_PROJECT_NAME', project);
    } else if (name === 'set' && args.length === 2) {
      variables.set(args[0], expand(args[1], variables));
    } else if (name === 'add_executable' && args.length > 0) {
      if (args[1] === 'IMPORTED' || args[1] === 'ALIAS') continue;
      const target = expand(args[0], variables);
      if (target !== '' && !target.includes('${')) targets.push(target);
    }
  }
  const program = targets.find((target) => !TEST_TARGET.test(target));
  const skipped = targets.slice(0, program === undefined ? 0 : targets.indexOf(program));
  if (program !== undefined) {
    const aside = skipped.length === 0 ? '' : ` (${skipped.join(', ')} ${skipped.length === 1 ? 'looks' : 'look'} like tests or benchmarks)`;
    return { entry: program, reason: `the first add_executable target ${program}${aside}` };
  }
  if (targets.length > 0) return { entry: targets[0], reason: `the first add_executable target ${targets[0]} (every target looks like tests or benchmarks)` };
  return { entry: null, reason: 'no entry point: CMakeLists.txt declares no add_executable target' };
}

/** chooseCppExecutable's target alone. */
export function findCppExecutable(cmakeLists: string): string | null {
  return chooseCppExecutable(cmakeLists).entry;
}

/** The executable target chosen (null: none) and, in one line, why. */
export interface CppEntryChoice {
  entry: string | null;
  reason: string;
}

function expand(value: string, variables: Map<string, string>): string {
  return value.replace(VARIABLE, (whole, name: string) => variables.get(name) ?? whole);
}
