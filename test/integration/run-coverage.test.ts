import { isStoredNames, type NameList } from '../../src/domain/nameList';
import { JACOCO_DIR } from '../../src/ecosystems/java/coverage';
import { PYTHON_COVERAGE_DIR } from '../../src/ecosystems/python/coverage';
import { useExecutionHarness } from '../helpers/execution';

// The traced run's coverage (issue 26 item 2; docs/ecosystems.md, "Coverage of the traced run") on real
// runs, for what the calibration suite does not show: the tools come from the image (nothing installed
// per run, so no package index), they are in neither D2 nor D3 though the run loads them, and C++'s is
// measured on a build and run of its own, the traced ones untouched. The counts are by hand, as the tools count.
const h = useExecutionHarness();

async function names(list: NameList | null | undefined): Promise<string[]> {
  if (list == null) return [];
  return isStoredNames(list) ? h.blobs.getJson<string[]>(list.blob) : list;
}

test('Python: coverage.py from the image, installed by nothing, in neither D2 nor D3', async () => {
  const files = {
    // 6 statements, 4 run (no argument: neither greet's body nor its call); helper.py never imported, 2.
    'main.py': 'import sys\n\n\ndef greet(name):\n    return "hello " + name\n\n\nif len(sys.argv) > 1:\n    print(greet(sys.argv[1]))\nelse:\n    print("nobody")\n',
    'helper.py': 'def unused():\n    return 1\n',
    'requirements.txt': 'six==1.16.0\n',
  };
  const { outcome, log } = await h.execute('coverage/replay/python/p_01/1', 'python', files, { run_timeout_s: 60 });
  expect(outcome.success).toBe(true);
  expect(outcome.coverage).toEqual({ tool: 'coverage.py', unit: 'statement', total: 8, executed: 4, share: 0.5, files: 2, files_executed: 1 });
  expect(log).toContain(`run under coverage.py 7.6.10 (from ${PYTHON_COVERAGE_DIR}, baked into the image, outside the venv)`);
  expect(log).not.toMatch(/pip install\b.*coverage/);
  expect(await names(outcome.layers?.installed)).toEqual(['six']);
  expect(await names(outcome.layers?.traced)).toEqual([]);
}, 300000);

test('Java: JaCoCo’s agent from the image on the traced JVM, the project’s classes only, in neither D2 nor D3', async () => {
  const files = {
    'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>t</groupId><artifactId>cov</artifactId><version>1</version>
<properties><maven.compiler.source>17</maven.compiler.source><maven.compiler.target>17</maven.compiler.target></properties>
<dependencies><dependency><groupId>com.google.code.gson</groupId><artifactId>gson</artifactId><version>2.10.1</version></dependency></dependencies></project>`,
    // Lines with code: Main.java 8 (its constructor, never called, and the branch not taken missed: 6 run),
    // util/Never.java 2 (never loaded). A default-package class with an inner one: `Main$1` goes through the shell.
    'src/main/java/Main.java': [
      'import com.google.gson.Gson;',
      '',
      'public class Main {',
      '  public static void main(String[] args) {',
      '    Runnable hello = new Runnable() {',
      '      public void run() {',
      '        System.out.println(new Gson().toJson(new int[] {1, 2}));',
      '      }',
      '    };',
      '    hello.run();',
      '    if (args.length > 0) {',
      '      System.out.println(util.Never.twice(args.length));',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n'),
    'src/main/java/util/Never.java': 'package util;\n\npublic class Never {\n  public static int twice(int x) {\n    return 2 * x;\n  }\n}\n',
  };
  const { outcome, log } = await h.execute('coverage/replay/java/p_01/1', 'java', files, { run_timeout_s: 120 });
  expect(outcome.success).toBe(true);
  expect(log).toContain('[1,2]');
  expect(log).toContain(`instrumenting Main:Main$1:util.*`);
  expect(outcome.coverage).toEqual({ tool: 'jacoco', unit: 'line', total: 10, executed: 6, share: 0.6, files: 2, files_executed: 1 });
  // The agent's classes did load, from the harness's folder, and still map to no artifact.
  const classLoad = await h.blobs.getText(outcome.artefacts.classLoadLog!);
  expect(classLoad).toContain(`source: file:${JACOCO_DIR}/jacocoagent.jar`);
  expect(await names(outcome.layers?.installed)).toEqual(['gson']);
  expect(await names(outcome.layers?.traced)).toEqual(['gson']);
}, 400000);

test('C++: gcov over a separate instrumented build and run, the project’s sources only; the traced build untouched', async () => {
  const files = {
    'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.16)\nproject(cov CXX)\nadd_library(util util.cpp)\nadd_executable(cov main.cpp)\ntarget_link_libraries(cov util)\n',
    // Lines with code, as gcov counts them: main.cpp 8 (main's opening line, each statement, the closing
    // brace), the two in the branch not taken missed; util.cpp 2 (twice, never called). <iostream> and
    // <vector>'s templates are system headers, not counted.
    'main.cpp': [
      '#include <iostream>',
      '#include <vector>',
      'int twice(int x);',
      '',
      'int main(int argc, char** argv) {',
      '  std::vector<int> v{1, 2};',
      '  std::cout << "ran " << v.size() << std::endl;',
      '  if (argc > 1) {',
      '    std::cout << twice(argc) << std::endl;',
      '    std::cout << argv[1] << std::endl;',
      '  }',
      '  return 0;',
      '}',
      '',
    ].join('\n'),
    'util.cpp': 'int twice(int x) {\n  return 2 * x;\n}\n',
  };
  const { outcome, log } = await h.execute('coverage/replay/cpp/p_01/1', 'cpp', files, { run_timeout_s: 60 });
  expect(outcome.success).toBe(true);
  expect(log).toContain('ran 2');
  expect(log).toContain('envgap: coverage: the instrumented build (build-envgap-coverage, --coverage) and its run (./build-envgap-coverage/cov) exited 0');
  expect(outcome.coverage).toEqual({ tool: 'gcov', unit: 'line', total: 10, executed: 6, share: 0.6, files: 2, files_executed: 1 });
  // The traced build is the one without --coverage: libgcov (libgcc-12-dev) is in no trace.
  for (const trace of [outcome.artefacts.buildTrace, outcome.artefacts.runTrace]) expect(await h.blobs.getText(trace!)).not.toMatch(/libgcov|\.gcda/);
}, 300000);
