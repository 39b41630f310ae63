import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { runShell } from '../../../src/agents/runShell';
import { processesMatching, uniqueSleep, waitFor } from '../../helpers/processes';

const options = { cwd: '/tmp', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, outputTailChars: 1000, stdoutTailChars: 1000 };

test('an abort kills the whole process group of the command', async () => {
  const sleep = uniqueSleep();
  const ac = new AbortController();
  const run = runShell(`${sleep.command} & ${sleep.command}`, { ...options, timeoutMs: 60000, signal: ac.signal });
  await waitFor('both sleeps', () => processesMatching(sleep.marker).length >= 2, 90_000);
  ac.abort();
  expect(await run).toMatchObject({ aborted: true });
  await waitFor('the group to die', () => processesMatching(sleep.marker).length === 0, 90_000);
}, 240_000);

test('when the process running the agent is SIGKILLed, its watchdog kills the agent', async () => {
  const sleep = uniqueSleep();
  // A separate Node process calls runShell and then dies by SIGKILL, which runs no handler of its own.
  // It loads the TypeScript source through the compiler's transpiler, so no build is needed.
  const child = spawn(process.execPath, ['-e', `
    const ts = require('typescript'), fs = require('fs');
    require.extensions['.ts'] = (m, f) => m._compile(ts.transpileModule(fs.readFileSync(f, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText, f);
    const { runShell } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/agents/runShell.ts'))});
    runShell(process.env.AGENT_COMMAND, { cwd: '/tmp', env: { PATH: process.env.PATH }, timeoutMs: 600000, outputTailChars: 10, stdoutTailChars: 10 });
    setInterval(() => undefined, 1000);
  `], { stdio: 'ignore', cwd: path.resolve(__dirname, '../../..'), env: { ...process.env, AGENT_COMMAND: sleep.command } });
  // (The command travels in the environment, so pgrep finds the agent, not this node process.)
  await waitFor('the agent to start', () => processesMatching(sleep.marker).length > 0, 90_000);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  await waitFor('the agent to die with its parent', () => processesMatching(sleep.marker).length === 0, 90_000);
}, 240_000);
