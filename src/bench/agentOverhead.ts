import { CliAgent } from '../agents/cli';
import type { AgentRequest } from '../agents/types';
import { connectDocker } from '../infra/docker';
import { ensureRuntimeImage } from '../infra/images';
import { loadSettings } from '../infra/settings';
import { runBench } from './run';

/**
 * What envgap adds to one agent call (issue 23's goal: at most 2 s): a confined agent's sandbox up and
 * down, the previous project in, the project out. The agent is a `cli` command that writes one file,
 * so nearly all of a call is envgap's; the figure is each call's `overheadMs` (its time less the agent
 * command's own). A preset adds its model relay and its session archive; the agents tier prints those
 * per preset (test/agents/presets-gap.test.ts). `ENVGAP_BENCH_CALLS` calls (default 10), sequential.
 */
runBench(async () => {
  const calls = Number(process.env.ENVGAP_BENCH_CALLS ?? 10);
  const docker = connectDocker();
  const settings = loadSettings();
  await ensureRuntimeImage(docker, settings, 'python', (line) => console.error(line));
  const agent = new CliAgent({ kind: 'cli', name: 'bench', command: "printf 'print(1)\\n' > hello.py", timeout_s: 60, env: [] }, {}, { confinement: { docker, settings } });
  const previous = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`pkg/module_${i}.py`, `def f${i}():\n    return ${i}\n`.repeat(20)]));
  const overhead: number[] = [];
  const agentMs: number[] = [];
  for (let i = 0; i < calls; i++) {
    const req: AgentRequest = { instanceId: `bench-overhead/bench/python/p_01/${i + 1}`, agent: 'bench', task: { id: 'p_01', title: 't', domain: 'd' }, language: 'python', trial: i + 1, iteration: 1, prompt: 'write hello.py', previousFiles: previous, error: null };
    const r = await agent.call(req);
    overhead.push(r.overheadMs ?? NaN);
    agentMs.push(r.agentMs ?? NaN);
  }
  const sorted = [...overhead].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  console.log(`agent call overhead over ${calls} calls (50 files in, 51 out): median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${sorted[sorted.length - 1]} ms; the agent's own command: median ${[...agentMs].sort((a, b) => a - b)[Math.floor(calls / 2)]} ms`);
});
