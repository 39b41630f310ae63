import { useExecutionHarness } from '../helpers/execution';
import type { RunSpec } from '../../src/domain/runSpec';

// Real containers through the executeProject activity: an iteration's run spec (.replay.json "run",
// or envgap.run.json) gives the program its arguments, standard input and environment.
const h = useExecutionHarness();
const spec = (s: Partial<RunSpec>): RunSpec => ({ args: [], stdin: null, env: {}, ...s });

test('Python: arguments (one with a space and a quote), stdin and env reach the program, and the record says how it ran', async () => {
  const program = [
    'import os, sys',
    'data = sys.stdin.read()',
    'print("argv=" + "|".join(sys.argv[1:]))',
    'print("stdin=" + data.strip())',
    'print("greeting=" + os.environ["GREETING"])',
  ].join('\n');
  const run = spec({ args: ['--count', "it's two words"], stdin: 'line one\n', env: { GREETING: 'hello there' } });
  const { outcome, log } = await h.execute('runspec/replay/python/all/1', 'python', { 'main.py': program + '\n' }, { run_timeout_s: 60 }, run);
  expect(outcome).toMatchObject({ success: true, runSpec: run, entry: { command: `python main.py --count 'it'\\''s two words'` } });
  expect(log).toContain("argv=--count|it's two words");
  expect(log).toContain('stdin=line one');
  expect(log).toContain('greeting=hello there');
  expect(log).toContain('envgap: run as the iteration asks (envgap.run.json or .replay.json): arguments ["--count","it\'s two words"]; 9 bytes on standard input; environment GREETING');
}, 240000);

test('Python: without a spec, standard input is empty and a program that needs an argument fails as it would', async () => {
  const program = 'import sys\nif len(sys.argv) < 2:\n    sys.exit("usage: main.py FILE")\nprint("got", sys.argv[1])\n';
  const { outcome, errorOutput } = await h.execute('runspec/replay/python/none/1', 'python', { 'main.py': program }, { run_timeout_s: 60 });
  expect(outcome).toMatchObject({ success: false, failedStep: 'run', exitCode: 1 });
  expect(outcome.runSpec).toBeUndefined();
  expect(errorOutput).toContain('usage: main.py FILE');
}, 240000);

test('JavaScript: npm start gets the arguments after --', async () => {
  const files = {
    'package.json': JSON.stringify({ name: 'args', version: '1.0.0', scripts: { start: 'echo starting && node cli.js' } }),
    'cli.js': 'console.log("args=" + process.argv.slice(2).join("|"));\n',
  };
  const { outcome, log } = await h.execute('runspec/replay/javascript/npm/1', 'javascript', files, { run_timeout_s: 60 }, spec({ args: ['input.txt', '--top', '3'] }));
  expect(outcome).toMatchObject({ success: true, entry: { command: 'npm start -- input.txt --top 3' } });
  expect(log).toContain('args=input.txt|--top|3');
}, 240000);

test('Java: the main class gets the arguments, quoted through the shell that expands the classpath', async () => {
  const files = {
    'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>t</groupId><artifactId>args</artifactId><version>1</version>
<properties><maven.compiler.source>17</maven.compiler.source><maven.compiler.target>17</maven.compiler.target></properties></project>`,
    'src/main/java/t/Main.java': 'package t;\npublic class Main { public static void main(String[] a) { System.out.println("args=" + String.join("|", a) + " env=" + System.getenv("MODE")); } }\n',
  };
  const { outcome, log } = await h.execute('runspec/replay/java/args/1', 'java', files, { run_timeout_s: 60 }, spec({ args: ['$HOME', 'a b'], env: { MODE: 'batch' } }));
  expect(outcome).toMatchObject({ success: true });
  expect(log).toContain('args=$HOME|a b env=batch');
}, 400000);
