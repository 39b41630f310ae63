import * as path from 'node:path';
import { REPO_ROOT, REPORT_PATH } from '../readiness/paths';
import { HARBOR_SHELL_FILE, harborShellScript, inHarborShell, workdirLinkCommand } from './harborShell';
import type { SessionLine, TrajectoryReplay } from './harborTrajectory';

/** A file of a trial's final workspace (artifacts/), relative to the working directory; content null where it is left out. */
export interface WorkspaceFile {
  rel: string;
  content: string | null;
  /** Why a file is left out (binary, too large). */
  why?: string;
}

/**
 * envgap's last step of an imported session: Harbor asks its agents for no report, so where the
 * session wrote none, /opt/scimlopsbench/report.json names the interpreter the agent's shell resolves
 * as `python` (else `python3`) when it finished, claiming nothing else. C0 and the entries then use the
 * agent's interpreter; C5 audits envgap's inference, not a claim of the agent (docs/harbor.md).
 */
export const INFERRED_REPORT_NOTE = 'written by envgap import harbor: the interpreter the agent shell resolved as python when it finished; Harbor asks its agents for no report';

export function inferredReportCommand(): string {
  const py = [
    'import json,sys',
    `json.dump({"python_path": sys.executable, "python_version": None, "torch_version": None, "cuda_available": None, "gpu_count": None, "ddp_expected_ok": None, "env_tool": None, "env_name": None, "notes": "${INFERRED_REPORT_NOTE}"}, open("${REPORT_PATH}", "w"))`,
  ].join('\n');
  return inHarborShell(`if [ ! -e ${REPORT_PATH} ]; then py="$(command -v python || command -v python3)"; mkdir -p ${path.posix.dirname(REPORT_PATH)} && "$py" -c '${py}' || true; fi`);
}

/** The steps every imported session starts with: the working directory linked to /repo, the agent's shell. */
function opening(workdir: string): SessionLine[] {
  return [{ cmd: workdirLinkCommand(workdir) }, { write: { path: HARBOR_SHELL_FILE, content: harborShellScript(workdir) } }];
}

export interface TrialSession {
  lines: SessionLine[];
  /** Files of the final workspace written after the replayed steps. */
  workspaceWrites: number;
  /** Files of the final workspace left out, with why. */
  workspaceLeftOut: string[];
}

/**
 * A trial's session: the trajectory's steps replayed, then the final workspace's files (those that
 * differ from the repository's own, where `original` can tell) written where the agent left them,
 * then the inferred report. `original(rel)`: the repository's content of a file, null where it has
 * none, undefined where it cannot tell (a git source).
 */
export function trialSession(workdir: string, replay: TrajectoryReplay | null, workspace: WorkspaceFile[] | null, original: (rel: string) => string | null | undefined): TrialSession {
  const lines = [...opening(workdir), ...(replay?.steps ?? [])];
  let workspaceWrites = 0;
  const workspaceLeftOut: string[] = [];
  for (const f of workspace ?? []) {
    if (f.content === null) {
      workspaceLeftOut.push(`${f.rel} (${f.why ?? 'left out'})`);
      continue;
    }
    if (original(f.rel) === f.content) continue;
    lines.push({ write: { path: path.posix.join(REPO_ROOT, f.rel), content: f.content } });
    workspaceWrites++;
  }
  lines.push({ cmd: inferredReportCommand() });
  return { lines, workspaceWrites, workspaceLeftOut };
}

/** Harbor's oracle agent: the task's solution/ copied to /solution and solve.sh run, in the task's working directory. */
export function oracleSession(workdir: string, solution: WorkspaceFile[]): SessionLine[] {
  const files = solution.filter((f) => f.content !== null).map((f): SessionLine => ({ write: { path: path.posix.join('/solution', f.rel), content: f.content! } }));
  return [...opening(workdir), ...files, { cmd: inHarborShell('bash /solution/solve.sh') }, { cmd: inferredReportCommand() }];
}
