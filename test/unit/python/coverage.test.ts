import { parseCoverageJson, PYTHON_COVERAGE_DIR, PYTHON_COVERAGE_VERSION } from '../../../src/ecosystems/python/coverage';
import { RUNTIME_RECIPES } from '../../../src/infra/recipes';

// `coverage json` of a run over /work (coverage.py 7.6): main.py ran, util.py was never imported.
const REPORT = JSON.stringify({
  meta: { version: '7.6.10', format: 3 },
  files: {
    'main.py': { executed_lines: [1, 2, 4], summary: { covered_lines: 23, num_statements: 25, percent_covered: 92 } },
    'util.py': { executed_lines: [], summary: { covered_lines: 0, num_statements: 5, percent_covered: 0 } },
  },
  totals: { covered_lines: 23, num_statements: 30, percent_covered: 76.67 },
});

test('statements executed of all the project’s statements, files never imported included', () => {
  expect(parseCoverageJson(REPORT)).toEqual({ tool: 'coverage.py', unit: 'statement', total: 30, executed: 23, share: 0.767, files: 2, files_executed: 1 });
});

test('no measure from what is no report, or counts nothing', () => {
  expect(parseCoverageJson('not json')).toBeNull();
  expect(parseCoverageJson(JSON.stringify({ totals: { covered_lines: 3 } }))).toBeNull();
  expect(parseCoverageJson(JSON.stringify({ files: {}, totals: { covered_lines: 0, num_statements: 0 } }))).toBeNull();
  expect(parseCoverageJson(JSON.stringify({ totals: { covered_lines: 5, num_statements: 3 } }))).toBeNull();
});

test('coverage.py is baked into the Python image, outside the venv, and checked to be absent from its pip list', () => {
  const python = RUNTIME_RECIPES.python('base');
  expect(python).toContain(`--target ${PYTHON_COVERAGE_DIR} coverage==${PYTHON_COVERAGE_VERSION}`);
  expect(PYTHON_COVERAGE_DIR.startsWith('/opt/venv')).toBe(false);
  expect(python).toContain("! pip list --format=freeze | grep -qi '^coverage=='");
});
