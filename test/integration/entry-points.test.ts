import { useExecutionHarness } from '../helpers/execution';
import type { Language } from '../../src/domain/instance';
import type { ProjectFiles } from '../../src/domain/files';

// Real containers through the executeProject activity: the entry each runner chose, and why, is in the
// outcome and the run log (docs/ecosystems.md, "Entry points").
const h = useExecutionHarness();
const execute = (id: string, language: Language, files: ProjectFiles) => h.execute(id, language, files, { run_timeout_s: 60 });

const pkg = (fields: Record<string, unknown>) => JSON.stringify({ name: 'word-freq', version: '1.0.0', ...fields });

test('a start script naming a missing file falls back to main, and says so', async () => {
  const files = { 'package.json': pkg({ main: 'index.js', scripts: { start: 'node server.js' } }), 'index.js': 'console.log("index ran");\n' };
  const { outcome, log } = await execute('entry/replay/javascript/main/1', 'javascript', files);
  expect(outcome).toMatchObject({ success: true, entry: { command: 'node index.js', reason: 'start script names server.js, which is absent; package.json main index.js' } });
  expect(log).toContain('envgap: entry `node index.js`: start script names server.js, which is absent; package.json main index.js');
  expect(log).toContain('index ran');
}, 240000);

test('a start script that runs more than node is run as npm start, traced to the program', async () => {
  const files = { 'package.json': pkg({ scripts: { start: 'echo starting && node lib/run.js' } }), 'lib/run.js': 'console.log("run ran");\n' };
  const { outcome, log } = await execute('entry/replay/javascript/npm-start/1', 'javascript', files);
  expect(outcome).toMatchObject({ success: true, entry: { command: 'npm start' } });
  expect(log).toContain('run ran');
  const runTrace = await h.blobs.getText(outcome.artefacts.runTrace!);
  expect(runTrace).toContain('/work/lib/run.js');
}, 240000);

test('a Python program beside a tests.py, both with a __main__ guard, runs the program', async () => {
  const guard = (text: string) => `if __name__ == "__main__":\n    print("${text}")\n`;
  const { outcome, log } = await execute('entry/replay/python/tests/1', 'python', { 'wordfreq.py': guard('program ran'), 'tests.py': guard('tests ran') });
  expect(outcome).toMatchObject({ success: true, entry: { command: 'python wordfreq.py', reason: 'the only top-level script with a __main__ guard wordfreq.py (tests.py is a test module)' } });
  expect(log).toContain('program ran');
}, 240000);
