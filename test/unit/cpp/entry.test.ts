import { chooseCppExecutable, findCppExecutable } from '../../../src/ecosystems/cpp/entry';
import { parseCMakeCommands } from '../../../src/ecosystems/cpp/entryCommands';

const TYPICAL = `cmake_minimum_required(VERSION 3.16)
project(json_validator VERSION 1.0.0 LANGUAGES CXX)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)

include(FetchContent)
FetchContent_Declare(
  json
  URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz
)
FetchContent_MakeAvailable(json)

add_executable(\${PROJECT_NAME} src/main.cpp src/validator.cpp)
target_link_libraries(\${PROJECT_NAME} PRIVATE nlohmann_json::nlohmann_json)
`;

describe('findCppExecutable', () => {
  it('expands ${PROJECT_NAME} from project()', () => {
    expect(findCppExecutable(TYPICAL)).toBe('json_validator');
  });

  it('takes the first add_executable target, any case, quoted or not', () => {
    expect(findCppExecutable('project(x)\nADD_EXECUTABLE(hasher main.cpp)\nadd_executable(other o.cpp)\n')).toBe('hasher');
    expect(findCppExecutable('add_executable("word count" main.cpp)')).toBe('word count');
    expect(findCppExecutable('add_executable (\n  app\n  main.cpp\n)')).toBe('app');
  });

  it('skips IMPORTED and ALIAS targets', () => {
    const text = `add_executable(protoc IMPORTED)
add_executable(Tool::app ALIAS app)
add_executable(app main.cpp)
`;
    expect(findCppExecutable(text)).toBe('app');
  });

  it('prefers a target that is not tests or benchmarks', () => {
    const text = `project(calc)
add_executable(calc_tests tests/test_main.cpp)
add_executable(unit_test tests/unit.cpp)
add_executable(calc src/main.cpp)
`;
    expect(findCppExecutable(text)).toBe('calc');
    expect(findCppExecutable('add_executable(runTests t.cpp)\nadd_executable(bench_sort b.cpp)')).toBe('bench_sort');
    expect(findCppExecutable('add_executable(tests t.cpp)')).toBe('tests');
  });

  it('expands single-value set() variables seen before, and CMAKE_PROJECT_NAME', () => {
    expect(findCppExecutable('project(outer)\nset(APP_NAME "imgtool")\nadd_executable(${APP_NAME} main.cpp)')).toBe('imgtool');
    expect(findCppExecutable('project(top)\nproject(sub)\nadd_executable(${CMAKE_PROJECT_NAME}_cli main.cpp)')).toBe('top_cli');
    expect(findCppExecutable('add_executable(${UNKNOWN} main.cpp)\nadd_executable(fallback f.cpp)')).toBe('fallback');
  });

  it('ignores comments, bracket comments and strings that look like commands', () => {
    const text = `# add_executable(commented main.cpp)
#[[
add_executable(bracketed main.cpp)
]]
message(STATUS "add_executable(quoted main.cpp)")
add_executable(real main.cpp) # add_executable(trailing x.cpp)
`;
    expect(findCppExecutable(text)).toBe('real');
  });

  it('is null without an executable target', () => {
    expect(findCppExecutable('project(lib)\nadd_library(lib STATIC lib.cpp)\n')).toBeNull();
    expect(findCppExecutable('')).toBeNull();
  });
});

describe('parseCMakeCommands', () => {
  it('reads commands, nested parentheses, bracket arguments and quoted arguments', () => {
    expect(parseCMakeCommands('if((A OR B) AND C)\nset(X [=[a;b]=] "c d")\nendif()')).toEqual([
      { name: 'if', args: ['A', 'OR', 'B', 'AND', 'C'] },
      { name: 'set', args: ['X', 'a;b', 'c d'] },
      { name: 'endif', args: [] },
    ]);
  });

  it('survives unterminated input', () => {
    expect(parseCMakeCommands('add_executable(app main.cpp')).toEqual([{ name: 'add_executable', args: ['app', 'main.cpp'] }]);
    expect(parseCMakeCommands('set(X "open')).toEqual([{ name: 'set', args: ['X', 'open'] }]);
  });
});

describe('chooseCppExecutable reasons', () => {
  it('names the target and the test-like targets passed over', () => {
    expect(chooseCppExecutable(TYPICAL)).toEqual({ entry: 'json_validator', reason: 'the first add_executable target json_validator' });
    expect(chooseCppExecutable('add_executable(unit_tests t.cpp)\nadd_executable(app main.cpp)').reason).toBe('the first add_executable target app (unit_tests looks like tests or benchmarks)');
    expect(chooseCppExecutable('add_executable(tests t.cpp)').reason).toBe('the first add_executable target tests (every target looks like tests or benchmarks)');
    expect(chooseCppExecutable('add_library(x x.cpp)')).toEqual({ entry: null, reason: 'no entry point: CMakeLists.txt declares no add_executable target' });
  });
});
