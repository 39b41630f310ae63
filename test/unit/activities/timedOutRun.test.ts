import * as fs from 'node:fs';
import * as path from 'node:path';
import { RUNNERS } from '../../../src/activities/runners';
import type { ProjectFiles } from '../../../src/domain/files';
import type { Language } from '../../../src/domain/instance';
import { DEFAULT_LIMITS, type ContainerLimits } from '../../../src/domain/study';
import type { ExecResult } from '../../../src/infra/exec';
import type { Sandbox } from '../../../src/sandbox';

const fixture = (dir: string, name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/outputs', dir, name), 'utf8');

/** A container where every step succeeds but the program's run, which reaches its time limit having printed `output`; its trace is `trace`. */
function timingOutSession(output: string, trace: string): Sandbox<ContainerLimits> {
  const ok = (text = ''): ExecResult => ({ exitCode: 0, output: text, timedOut: false, durationMs: 1 });
  return {
    put: async () => undefined,
    exec: async (cmd: string[], opts: { step?: string }) => (opts.step === 'run' ? { exitCode: null, output, timedOut: true, durationMs: 30_000 } : ok(cmd.join(' ').includes('npm ls') ? '{}' : '')),
    readText: async (file: string) => (file.endsWith('/run.trace') ? trace : file.endsWith('.json') ? '[]' : ''),
    oomKilled: async () => false,
    sealForRun: async (afterKill?: () => Promise<void>) => afterKill?.(),
    probe: async () => null,
    diskLimitHit: async () => false,
    hostInitPid: 0,
    containerId: '',
    limits: { ...DEFAULT_LIMITS, run_timeout_s: 30 },
  } as unknown as Sandbox<ContainerLimits>;
}

const run = (language: Language, files: ProjectFiles, output: string, trace: string) => RUNNERS[language](timingOutSession(output, trace), files, DEFAULT_LIMITS);

describe('a run stopped at its time limit', () => {
  it('that printed a refused connection again and again is Environment (Redis), with the note handed to Repair', async () => {
    const r = await run('javascript', { 'package.json': fixture('node-ioredis-timeout', 'package.json'), 'index.js': fixture('node-ioredis-timeout', 'index.js') }, fixture('node-ioredis-timeout', 'output.txt'), fixture('node-ioredis-timeout', 'run.trace'));
    expect(r).toMatchObject({ success: false, failedStep: 'run', errorClass: 'Environment', environment: { rule: 'service-port', service: 'Redis', host: '127.0.0.1:6379' } });
    expect(r.errorOutput).toMatch(/envgap: classed Environment by rule service-port \(service Redis, host 127\.0\.0\.1:6379\): stopped at the time limit of 30 s waiting on it\n$/);
    expect(r.log).toContain('stopped at the time limit of 30 s waiting on it');
    expect(r).not.toHaveProperty('timeoutKind');
  });

  it('that printed nothing while its trace shows MongoDB refused is Environment (MongoDB) by the refused connections', async () => {
    const r = await run('python', { 'requirements.txt': 'pymongo==4.10.1\n', 'main.py': fixture('python-pymongo-timeout', 'main.py') }, '', fixture('python-pymongo-timeout', 'run.trace'));
    expect(r).toMatchObject({ errorClass: 'Environment', environment: { rule: 'refused-connection', service: 'MongoDB', host: '127.0.0.1:27017' } });
  });

  it('where neither says why, stays the program\'s Timeout', async () => {
    const r = await run('python', { 'main.py': 'while True:\n    pass\n' }, '', '123  openat(AT_FDCWD, "/work/main.py", O_RDONLY|O_CLOEXEC) = 3\n');
    expect(r).toMatchObject({ errorClass: 'Timeout' });
    expect(r).not.toHaveProperty('environment');
  });
});
