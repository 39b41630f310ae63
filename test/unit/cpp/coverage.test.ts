import { ownCoverageNotes, parseGcovJson } from '../../../src/ecosystems/cpp/coverage';

// The shape of gcc 12's `gcov --json-format --stdout`: one document per object file, one per line.
const line = (line_number: number, count: number) => ({ branches: [], count, line_number, unexecuted_block: count === 0, function_name: 'f' });
const doc = (cwd: string, files: { file: string; lines: [number, number][] }[]) =>
  JSON.stringify({ gcc_version: '12.2.0', format_version: '1', current_working_directory: cwd, data_file: 'x.gcno', files: files.map((f) => ({ file: f.file, functions: [], lines: f.lines.map(([n, c]) => line(n, c)) })) });

describe('parseGcovJson', () => {
  it('counts the lines with code of the project’s own sources, a line once however many objects compiled it', () => {
    const text = [
      doc('/work/build-envgap-coverage', [
        { file: '/work/main.cpp', lines: [[5, 1], [6, 1], [7, 1], [8, 1], [9, 0], [10, 0], [12, 1], [13, 1]] },
        { file: '/usr/include/c++/12/iostream', lines: [] },
        { file: '/usr/include/c++/12/bits/stl_algobase.h', lines: [[313, 1], [313, 2], [236, 0]] },
        { file: '/work/util.h', lines: [[2, 0], [3, 0]] },
      ]),
      doc('/work/build-envgap-coverage', [{ file: '/work/util.cpp', lines: [[2, 0], [3, 0]] }, { file: '/work/util.h', lines: [[2, 1], [3, 0]] }]),
      '',
    ].join('\n');
    // main.cpp 6 of 8; util.h 1 of 2 (run from the second object); util.cpp 0 of 2.
    expect(parseGcovJson(text)).toEqual({ tool: 'gcov', unit: 'line', total: 12, executed: 7, share: 0.583, files: 3, files_executed: 2 });
  });

  it('leaves out FetchContent’s sources, the build folders, CMake’s compiler checks and files without code', () => {
    const text = doc('/work/build-envgap-coverage/CMakeFiles/3.25.1/CompilerIdCXX', [
      { file: 'CMakeCXXCompilerId.cpp', lines: [[832, 0]] },
      { file: '/work/build-envgap-coverage/_deps/fmt-src/include/fmt/core.h', lines: [[10, 1]] },
      { file: '/work/build/_deps/json-src/json.hpp', lines: [[10, 1]] },
      { file: '/work/build-envgap-coverage/generated.cpp', lines: [[1, 1]] },
      { file: '/work/third/_deps/x.cpp', lines: [[1, 1]] },
      { file: '/work/src/empty.h', lines: [] },
      { file: '../src/app.cpp', lines: [[1, 1], [2, 0]] },
    ]);
    // Only ../src/app.cpp, relative to the working directory: /work/build-envgap-coverage/CMakeFiles/3.25.1/src/app.cpp is a build folder's, so nothing.
    expect(parseGcovJson(text)).toBeNull();
    expect(parseGcovJson(doc('/work/build-envgap-coverage', [{ file: '../src/app.cpp', lines: [[1, 1], [2, 0]] }]))).toEqual({ tool: 'gcov', unit: 'line', total: 2, executed: 1, share: 0.5, files: 1, files_executed: 1 });
  });

  it('is null where nothing of the project was compiled', () => {
    expect(parseGcovJson('')).toBeNull();
  });
});

describe('ownCoverageNotes', () => {
  it('keeps the project’s objects, not CMake’s compiler checks nor FetchContent’s', () => {
    expect(
      ownCoverageNotes([
        './CMakeFiles/3.25.1/CompilerIdCXX/a-CMakeCXXCompilerId.gcno',
        './CMakeFiles/cov.dir/main.cpp.gcno',
        './CMakeFiles/cov.dir/main.cpp.gcda',
        './src/CMakeFiles/util.dir/util.cpp.gcno',
        './_deps/fmt-build/CMakeFiles/fmt.dir/src/format.cc.gcno',
        '',
      ]),
    ).toEqual(['./CMakeFiles/cov.dir/main.cpp.gcno', './src/CMakeFiles/util.dir/util.cpp.gcno']);
  });
});
