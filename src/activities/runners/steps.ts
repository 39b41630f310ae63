import type { ProjectFiles } from '../../domain/files';
import type { ErrorClass } from '../../domain/instance';
import type { Sandbox } from '../../sandbox';
import type { ExecutionStep } from '../types';
import type { ExecResult } from '../../infra/exec';
import type { StepFailure } from '../../ecosystems/ecosystem';
import { resourceLimitHit } from '../../ecosystems/resourceLimits';
import { environmentFailure, environmentNote, type EnvironmentFailure } from '../../ecosystems/environmentFailure';
import { timedOutRunEnvironment } from '../../ecosystems/timedOutRun';
import type { RunCoverage } from '../../domain/coverage';
import { DEFAULT_SERVICE_GRACE_S, type ContainerLimits } from '../../domain/study';
import { shellQuote } from '../../text/shellQuote';
import { describeRunSpec, isEmptyRunSpec, RUN_FILE, type RunSpec } from '../../domain/runSpec';
import { SERVICE_PROBE, ServiceWatch, type RunKind, type TimeoutKind, type WatchReading } from './serviceWatch';
import { hostServiceLook } from './hostLook';

/**
 * What a runner returns: outcome, the failing step's output, and named raw artefacts to store, by the
 * names of the ecosystem's artefact union `A` (see src/ecosystems/<language>/ecosystem.ts).
 */
export interface RunnerResult<A extends string = string> {
  success: boolean;
  failedStep: ExecutionStep | null;
  errorClass: ErrorClass | null;
  errorOutput: string | null;
  exitCode: number | null;
  log: string;
  artefacts: { [K in A]?: string | null };
  /**
   * The program's run as the runner ran it (argv, in /work), under strace and without; null where the
   * run was not reached. The benchmark times exactly these two commands.
   */
  run: ProgramRun | null;
  /** The entry the runner chose to run (as shown in the log) and why; absent where none was chosen yet. */
  entry?: EntryChoice;
  /** Why the run was classed Environment (the rule, the host or service). */
  environment?: EnvironmentFailure;
  /** With success: `service` where the program was still running at its time limit and seen listening on a TCP port; `program` where it exited 0. */
  runKind?: RunKind;
  /** With errorClass Timeout of the run: `silent` (no output, next to no CPU since the grace) or `busy`; absent where the run ended before the first look. */
  timeoutKind?: TimeoutKind;
  /** What the program's run printed (stdout and stderr, as the run step captured them); absent where the run was not reached. Not stored: phantom confirmation compares it. */
  runOutput?: string;
  /** The share of the project's own code the run executed, where the runner measures it (src/domain/coverage.ts). */
  coverage?: RunCoverage;
}

export interface EntryChoice {
  command: string;
  reason: string;
}

export interface ProgramRun {
  command: string[];
  traced: string[];
}

export const OUT = '/tmp/envgap';

export const NO_RUN_SPEC: RunSpec = { args: [], stdin: null, env: {} };

/** --seccomp-bpf stops the tracee only on the traced calls, not on every syscall (about 1.2x instead of 2.5x). */
/** connect and getsockopt: the connections a run stopped at its time limit saw refused (src/ecosystems/timedOutRun.ts). */
export const TRACE = ['strace', '-f', '-qq', '--seccomp-bpf', '-e', 'trace=open,openat,execve,chdir,connect,getsockopt'];

/** The artefact every runner stores the program's run trace under, before it asks `ran`. */
const RUN_TRACE = 'runTrace';

export function traced(output: string, cmd: string[]): string[] {
  return [...TRACE, '-o', output, ...cmd];
}

/** A command as one shell line: words that need no quoting as they are, the others quoted. */
export function shellLine(argv: string[]): string {
  return argv.map((w) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(w) ? w : shellQuote(w))).join(' ');
}

/** Whether a command is a traced one (strace, or a shell that execs it): its main process is then strace's child. */
export function isTraced(cmd: string[]): boolean {
  if (cmd[0] === TRACE[0]) return true;
  return cmd[0] === 'sh' && cmd[1] === '-c' && (cmd[2] ?? '').startsWith(`exec ${TRACE[0]} `);
}

/**
 * Runs a runner's steps in one container, keeping a readable log and the artefacts gathered, named
 * by the ecosystem's artefact union: `new Steps<PythonArtefact>(session).collect('runTrce', ...)`
 * does not compile.
 */
export class Steps<A extends string> {
  readonly artefacts: { [K in A]?: string | null } = {};
  private readonly log: string[] = [];
  private program: ProgramRun | null = null;
  private chosen: EntryChoice | undefined;
  private watched: WatchReading | null = null;
  private runOutput: string | undefined;

  constructor(readonly session: Sandbox<ContainerLimits>) {}

  /** Copies the project to /work and the harness's own files (and so its folder) to OUT. */
  async start(files: ProjectFiles, harnessFiles: ProjectFiles = {}): Promise<void> {
    await this.session.put('/work', files);
    await this.session.put(OUT, { '.envgap': '', ...harnessFiles });
  }

  async exec(step: ExecutionStep, cmd: string[], timeoutS: number, shown = cmd.join(' '), workdir = '/work', onOutput?: () => void, io?: { env?: string[]; stdinFile?: string }): Promise<ExecResult> {
    // A traced command is judged by the program's exit, not by strace's (which waits for every process it follows).
    const r = await this.session.exec(cmd, { step, timeoutS, workdir, main: isTraced(cmd) ? 'tracee' : 'command', onOutput, ...io });
    this.log.push(`$ ${shown}`, r.output.trimEnd(), `(exit ${r.exitCode}${r.timedOut ? ', timed out' : ''}, ${r.durationMs} ms)`);
    return r;
  }

  /** A step of the harness itself: failing is an infrastructure fault, never the agent's. */
  async harness(cmd: string, what: string): Promise<ExecResult> {
    const r = await this.session.exec(['sh', '-c', cmd], { step: 'setup', timeoutS: 300 });
    if (r.exitCode !== 0) throw new Error(`${what} failed in the container (exit ${r.exitCode}): ${r.output.slice(-2000)}`);
    return r;
  }

  /**
   * The program's own run, given as itself and as traced (the one run); both are remembered for the
   * benchmark. The iteration's run spec (its arguments are already in `program`) gives its standard
   * input and the variables added to its environment; `harnessEnv`, variables of the harness's own
   * (where V8 writes its coverage), which the iteration's variables override.
   */
  async run(program: ProgramRun, timeoutS: number, shown = program.command.join(' '), spec: RunSpec = NO_RUN_SPEC, harnessEnv: Record<string, string> = {}): Promise<ExecResult> {
    this.program = program;
    if (!isEmptyRunSpec(spec)) this.note(`envgap: run as the iteration asks (${RUN_FILE} or .replay.json): ${describeRunSpec(spec)}`);
    const io: { env: string[]; stdinFile?: string } = { env: Object.entries({ ...harnessEnv, ...spec.env }).map(([k, v]) => `${k}=${v}`) };
    if (spec.stdin !== null) {
      await this.session.put(OUT, { stdin: spec.stdin });
      io.stdinFile = `${OUT}/stdin`;
    }
    // From the host where this process sees the container's init, else by an exec.
    const watch = new ServiceWatch(async () => hostServiceLook(this.session.hostInitPid, this.session.containerId) ?? this.session.probe(SERVICE_PROBE));
    // The baseline look needs the install's leftovers killed: it is taken while the caches are remounted.
    await this.session.sealForRun(() => watch.baseline());
    watch.start(this.session.limits.service_grace_s ?? DEFAULT_SERVICE_GRACE_S, timeoutS);
    try {
      const r = await this.exec('run', program.traced, timeoutS, shown, '/work', () => watch.output(), io);
      this.runOutput = r.output;
      return r;
    } finally {
      this.watched = await watch.stop();
    }
  }

  /**
   * The run's outcome, once its artefacts are collected: exit 0 is a success (a program); a run that
   * reached its time limit after it was seen listening on a TCP port, at none of the container's
   * resource limits, is a success too (a service, its trace up to the stop); anything else is a failure,
   * classed. A run the ecosystem classed Timeout that waited on what the machine cannot give (its output
   * or its trace's refused connections say so: src/ecosystems/timedOutRun.ts) is Environment instead;
   * a Timeout left says whether it was silent or busy.
   */
  async ran(r: ExecResult, classify: (f: StepFailure<'run'>) => ErrorClass): Promise<RunnerResult<A>> {
    if (r.exitCode === 0) return { ...this.succeed(), runKind: 'program' };
    const watched = this.watched;
    if (r.timedOut && watched && watched.ports.length > 0 && !(await this.limitHit('run', r))) {
      this.note(`envgap: a service: still running at the time limit of ${this.session.limits.run_timeout_s} s, listening on TCP port ${watched.ports.join(', ')}; stopped, a success`);
      return { ...this.succeed(), runKind: 'service' };
    }
    const f = await this.failure('run', r, classify);
    const waitedOn = f.errorClass === 'Timeout' && r.timedOut ? timedOutRunEnvironment(r.output, this.artefactText(RUN_TRACE)) : null;
    if (waitedOn) {
      const note = `${environmentNote(waitedOn)}: stopped at the time limit of ${this.session.limits.run_timeout_s} s waiting on it`;
      this.note(note);
      return { ...f, errorClass: 'Environment', errorOutput: `${r.output.trimEnd()}\n${note}\n`, log: this.log.join('\n'), environment: waitedOn };
    }
    if (f.errorClass === 'Timeout' && watched?.timeoutKind) {
      this.note(`envgap: not serving (no TCP port listening) at the time limit: ${watched.timeoutKind === 'silent' ? 'silent (no output and next to no CPU since the grace)' : 'busy (output or CPU since the grace)'}`);
      return { ...f, log: this.log.join('\n'), timeoutKind: watched.timeoutKind };
    }
    return f;
  }

  private async limitHit(step: ExecutionStep, r: ExecResult) {
    const dockerOomKilled = r.exitCode === 137 && (await this.session.oomKilled());
    return resourceLimitHit({ ...r, dockerOomKilled }, this.session.limits, step === 'run' ? 'the program' : `the ${step} step`);
  }

  private artefactText(name: string): string | null {
    return (this.artefacts as Partial<Record<string, string | null>>)[name] ?? null;
  }

  /** Stores an artefact the runner already holds (a step's output). */
  keep(name: A, text: string | null): void {
    this.artefacts[name] = text;
  }

  /** Reads a file of the container into an artefact (null where the file is absent). */
  async collect(name: A, path: string): Promise<string | null> {
    const text = await this.session.readText(path);
    this.artefacts[name] = text;
    return text;
  }

  note(line: string): void {
    this.log.push(line);
  }

  /** Records the entry chosen and why, in the result and in the log. */
  entry(command: string, reason: string): void {
    this.chosen = { command, reason };
    this.note(`envgap: entry \`${command}\`: ${reason}`);
  }

  fail(step: ExecutionStep, errorClass: ErrorClass, output: string, exitCode: number | null): RunnerResult<A> {
    return { success: false, failedStep: step, errorClass, errorOutput: output, exitCode, log: this.log.join('\n'), artefacts: this.artefacts, run: this.program, ...this.entryField(), ...this.runOutputField() };
  }

  private runOutputField(): Pick<RunnerResult, 'runOutput'> {
    return this.runOutput !== undefined ? { runOutput: this.runOutput } : {};
  }

  private entryField(): Pick<RunnerResult, 'entry'> {
    return this.chosen ? { entry: this.chosen } : {};
  }

  succeed(): RunnerResult<A> {
    return { success: true, failedStep: null, errorClass: null, errorOutput: null, exitCode: 0, log: this.log.join('\n'), artefacts: this.artefacts, run: this.program, ...this.entryField(), ...this.runOutputField() };
  }

  /**
   * A failed step, classed. A step that hit one of the container's resource limits (a process killed
   * for memory, forks refused at the pids limit: the cgroup's counters around the step, Docker's
   * OOMKilled) is MemoryLimit or PidsLimit, whatever else it printed and even when it then ran past its
   * time limit, and the output handed to Repair ends with which limit it was; otherwise the ecosystem
   * classes it. A run classed Environment (src/ecosystems/environmentFailure.ts) gets the rule that
   * fired, and the host or service it named, as the last line of its output and of the log.
   */
  async failure<S extends ExecutionStep>(step: S, r: ExecResult, classify: (f: StepFailure<S>) => ErrorClass): Promise<RunnerResult<A>> {
    const hit = await this.limitHit(step, r);
    if (hit) {
      this.note(hit.note);
      return this.fail(step, hit.errorClass, `${r.output.trimEnd()}\n${hit.note}\n`, r.exitCode);
    }
    const errorClass = classify({ step, exitCode: r.exitCode, timedOut: r.timedOut, output: r.output });
    const environment = errorClass === 'Environment' && step === 'run' ? environmentFailure(r.output) : null;
    if (environment) {
      const note = environmentNote(environment);
      this.note(note);
      return { ...this.fail(step, errorClass, `${r.output.trimEnd()}\n${note}\n`, r.exitCode), environment };
    }
    return this.fail(step, errorClass, r.output, r.exitCode);
  }
}
