import * as path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from '../readiness/paths';
import { describeIssues } from '../text/zodIssues';
import { inHarborShell } from './harborShell';

/** A line of a readiness session.jsonl (src/readiness/session.ts). */
export type SessionLine = { cmd: string; timeout_s?: number } | { write: { path: string; content: string } };

/**
 * An agent's trajectory in Harbor's ATIF (Agent Trajectory Interchange Format, agent/trajectory.json
 * of a trial), as far as envgap reads it: the agent's steps and their tool calls, in order.
 */
const ToolCall = z.looseObject({ function_name: z.string(), arguments: z.unknown().optional() });
const Trajectory = z.looseObject({
  schema_version: z.string().regex(/^ATIF-v/, 'an ATIF version such as "ATIF-v1.6"').optional(),
  agent: z.looseObject({ name: z.string().optional(), version: z.string().optional(), model_name: z.string().nullish() }).optional(),
  steps: z.array(z.looseObject({ source: z.string().optional(), tool_calls: z.array(ToolCall).nullish(), is_copied_context: z.boolean().nullish() })),
  subagent_trajectories: z.array(z.unknown()).nullish(),
});

/** What a trajectory becomes: the session's steps, and what of it could not be replayed, counted by tool. */
export interface TrajectoryReplay {
  steps: SessionLine[];
  commands: number;
  writes: number;
  edits: number;
  /** Tool calls that change nothing a replay can redo (reads, searches, plans) or that it cannot redo, by `tool: why`. */
  skipped: Record<string, number>;
  /** Sub-agents' own trajectories (not replayed: their effects come from the final workspace where there is one). */
  subagents: number;
}

/** Programs that wait for a terminal: a replay would hang on them. */
const INTERACTIVE = /^(vi|vim|nvim|nano|emacs|less|more|top|htop|man|watch|tmux|screen)(\s|$)/;
/** tmux key names Terminus sends (C-c, C-d, Escape, Enter, ...): no command of their own. */
const KEY_NAME = /^(C-[a-z\\]|M-[a-z]|Escape|Enter|Tab|BSpace|Up|Down|Left|Right|PageUp|PageDown|q)$/;

const EDIT_SCRIPT = [
  'import base64,json,sys',
  'd=json.loads(base64.b64decode(sys.argv[1]))',
  'p=d["path"]',
  's=open(p,encoding="utf-8").read()',
  'for e in d["edits"]:',
  '    if e["old"] not in s: sys.exit("envgap: the edit of "+p+" finds no text to replace")',
  '    s=s.replace(e["old"],e["new"]) if e["all"] else s.replace(e["old"],e["new"],1)',
  'open(p,"w",encoding="utf-8").write(s)',
].join('\n');

/** A text edit (Claude Code's Edit and MultiEdit, an editor tool's str_replace) as a command. */
export function editCommand(file: string, edits: { old: string; new: string; all: boolean }[]): string {
  const data = Buffer.from(JSON.stringify({ path: file, edits })).toString('base64');
  return `/usr/bin/python3 -c '${EDIT_SCRIPT}' ${data}`;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

const q = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * Reads a trajectory and replays its tool calls as session steps: shell commands in the agent's
 * shell (harborShell.ts), file writes, and text edits; paths under the task's working directory go
 * to /repo.
 */
export function trajectoryReplay(json: unknown, file: string, workdir: string): TrajectoryReplay {
  const parsed = Trajectory.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: not an ATIF trajectory: ${describeIssues(parsed.error).join('; ')}`);
  const out: TrajectoryReplay = { steps: [], commands: 0, writes: 0, edits: 0, skipped: {}, subagents: parsed.data.subagent_trajectories?.length ?? 0 };
  const skip = (tool: string, why: string) => {
    const key = `${tool}: ${why}`;
    out.skipped[key] = (out.skipped[key] ?? 0) + 1;
  };
  const inRepo = (p: string): string => {
    const abs = path.posix.resolve(workdir, p);
    return abs === workdir ? REPO_ROOT : abs.startsWith(`${workdir}/`) && workdir !== '/' ? `${REPO_ROOT}${abs.slice(workdir.length)}` : abs;
  };
  const command = (cmd: string, dir: string | null) => {
    out.steps.push({ cmd: inHarborShell(dir ? `cd ${q(dir)} && ${cmd}` : cmd) });
    out.commands++;
  };
  const write = (p: string, content: string) => {
    out.steps.push({ write: { path: inRepo(p), content } });
    out.writes++;
  };
  const edit = (p: string, edits: { old: string; new: string; all: boolean }[]) => {
    out.steps.push({ cmd: editCommand(inRepo(p), edits) });
    out.edits++;
  };

  for (const step of parsed.data.steps) {
    // A continuation repeats earlier context (is_copied_context): its calls were replayed already.
    if ((step.source !== undefined && step.source !== 'agent') || step.is_copied_context === true) continue;
    for (const call of step.tool_calls ?? []) {
      const name = call.function_name;
      const args = (call.arguments && typeof call.arguments === 'object' ? call.arguments : {}) as Record<string, unknown>;
      const filePath = str(args.file_path) ?? str(args.path) ?? str(args.filename);
      const dir = str(args.workdir) ?? str(args.directory) ?? str(args.cwd);

      if (/(str_replace_editor|text_editor|str_replace_based_edit_tool)$/.test(name)) {
        const sub = str(args.command);
        if (sub === 'create' && filePath && str(args.file_text) !== null) write(filePath, str(args.file_text)!);
        else if (sub === 'str_replace' && filePath && str(args.old_str) !== null) edit(filePath, [{ old: str(args.old_str)!, new: str(args.new_str) ?? '', all: false }]);
        else skip(name, sub === 'view' ? 'reads' : `${sub ?? 'an editor command'} is not replayed`);
        continue;
      }
      const keys = str(args.keystrokes);
      if (keys !== null) {
        const text = keys.replace(/\r/g, '\n');
        const line = text.trim();
        if (!line) skip(name, 'no keys');
        else if (KEY_NAME.test(line)) skip(name, 'a key press, not a command');
        else if (!text.endsWith('\n')) skip(name, 'typed without Enter');
        else if (INTERACTIVE.test(line)) skip(name, 'an interactive program');
        else command(text.replace(/\n+$/, ''), null);
        continue;
      }
      const content = str(args.content) ?? str(args.file_text);
      if (filePath && content !== null && str(args.old_string) === null) {
        write(filePath, content);
        continue;
      }
      if (filePath && Array.isArray(args.edits)) {
        const edits = (args.edits as Record<string, unknown>[]).filter((e) => str(e?.old_string) !== null).map((e) => ({ old: str(e.old_string)!, new: str(e.new_string) ?? '', all: e.replace_all === true }));
        if (edits.length > 0) edit(filePath, edits);
        else skip(name, 'no edits');
        continue;
      }
      if (filePath && str(args.old_string) !== null) {
        edit(filePath, [{ old: str(args.old_string)!, new: str(args.new_string) ?? '', all: args.replace_all === true }]);
        continue;
      }
      const cmd = str(args.command) ?? str(args.cmd);
      const argv = Array.isArray(args.command) && args.command.every((w) => typeof w === 'string') ? (args.command as string[]) : null;
      if (cmd !== null || argv) {
        const shell = cmd ?? (argv!.length >= 3 && /^(\/bin\/|\/usr\/bin\/)?(ba)?sh$/.test(argv![0]!) && /^-l?c$/.test(argv![1]!) ? argv![2]! : argv!.map(q).join(' '));
        if (!shell.trim()) skip(name, 'an empty command');
        else if (INTERACTIVE.test(shell.trim())) skip(name, 'an interactive program');
        else command(shell, dir);
        continue;
      }
      skip(name, /patch/i.test(name) ? 'a patch is not replayed (its result is in the final workspace, where the trial has one)' : 'changes nothing a replay redoes, or is not a shell command or a file write');
    }
  }
  return out;
}
