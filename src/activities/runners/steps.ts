import type { ProjectFiles } from '../../domain/files';
import type { ErrorClass } from '../../domain/instance';
import type { ContainerSession } from '../containerSession';
import type { ExecutionStep } from '../types';
import type { ExecResult } from '../../infra/docker';

/** What a runner returns: outcome, the failing step's output, and named raw artefacts to store. */
export interface RunnerResult {
  success: boolean;
  failedStep: ExecutionStep | null;
  errorClass: ErrorClass | null;
  errorOutput: string | null;
  exitCode: number | null;
  log: string;
  artefacts: Record<string, string | null>;
}

export const OUT = '/tmp/envgap';

/** --seccomp-bpf stops the tracee only on the traced calls, not on every syscall (about 1.2x instead of 2.5x). */
export const TRACE = ['strace', '-f', '-qq', '--seccomp-bpf', '-e', 'trace=open,openat,execve,chdir'];

export function traced(output: string, cmd: string[]): string[] {
  return [...TRACE, '-o', output, ...cmd];
}

/** Runs a runner's steps in one container, keeping a readable log and the artefacts gathered. */
export class Steps {
  readonly artefacts: Record<string, string | null> = {};
  private readonly log: string[] = [];

  constructor(readonly session: ContainerSession) {}

  /** Copies the project to /work and the harness's own files (and so its folder) to OUT. */
  async start(files: ProjectFiles, harnessFiles: ProjectFiles = {}): Promise<void> {
    await this.session.put('/work', files);
    await this.session.put(OUT, { '.envgap': '', ...harnessFiles });
  }

  async exec(step: ExecutionStep, cmd: string[], timeoutS: number, shown = cmd.join(' '), workdir = '/work'): Promise<ExecResult> {
    const r = await this.session.exec(step, cmd, timeoutS, workdir);
    this.log.push(`$ ${shown}`, r.output.trimEnd(), `(exit ${r.exitCode}${r.timedOut ? ', timed out' : ''}, ${r.durationMs} ms)`);
    return r;
  }

  /** A step of the harness itself: failing is an infrastructure fault, never the agent's. */
  async harness(cmd: string, what: string): Promise<ExecResult> {
    const r = await this.session.exec('setup', ['sh', '-c', cmd], 300);
    if (r.exitCode !== 0) throw new Error(`${what} failed in the container (exit ${r.exitCode}): ${r.output.slice(-2000)}`);
    return r;
  }

  async collect(name: string, path: string): Promise<string | null> {
    const text = await this.session.readText(path);
    this.artefacts[name] = text;
    return text;
  }

  note(line: string): void {
    this.log.push(line);
  }

  fail(step: ExecutionStep, errorClass: ErrorClass, output: string, exitCode: number | null): RunnerResult {
    return { success: false, failedStep: step, errorClass, errorOutput: output, exitCode, log: this.log.join('\n'), artefacts: this.artefacts };
  }

  succeed(): RunnerResult {
    return { success: true, failedStep: null, errorClass: null, errorOutput: null, exitCode: 0, log: this.log.join('\n'), artefacts: this.artefacts };
  }

  /**
   * The failure of the program's run, classed by the ecosystem. A run killed for memory shows as exit
   * 137 with OOMKilled: it is said in the output handed to Repair, and it is not a timeout.
   */
  async runFailure(r: ExecResult, classify: (f: { step: 'run'; exitCode: number | null; timedOut: boolean; output: string }) => ErrorClass): Promise<RunnerResult> {
    const oom = r.exitCode === 137 && (await this.session.oomKilled());
    const output = oom ? `${r.output}\nenvgap: the container was killed for exceeding its memory limit (OOMKilled)` : r.output;
    return this.fail('run', classify({ step: 'run', exitCode: r.exitCode, timedOut: r.timedOut && !oom, output }), output, r.exitCode);
  }

}
