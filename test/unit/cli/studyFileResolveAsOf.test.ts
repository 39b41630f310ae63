import { loadCatalog } from '../../../src/catalog/catalog';
import { parseStudyFile, StudyFileError } from '../../../src/cli/studyFile';
import { resolutionCutoff, resolveAsOfProblem } from '../../../src/domain/resolveAsOf';
import { expandStudy } from '../../../src/domain/study';
import { ONE_TASK_STUDY } from '../../helpers/oneTaskStudy';

const catalog = loadCatalog();

function problemsOf(text: string): string[] {
  try {
    parseStudyFile(text, 's.yaml', catalog);
  } catch (err) {
    expect(err).toBeInstanceOf(StudyFileError);
    return (err as StudyFileError).problems;
  }
  throw new Error('accepted');
}

describe('resolve_as_of in a study file', () => {
  test('a date (unquoted YAML) is carried into every instance', () => {
    const s = parseStudyFile(`${ONE_TASK_STUDY}resolve_as_of: 2023-06-01\n`, 's.yaml', catalog);
    expect(s.resolveAsOf).toBe('2023-06-01');
    expect(expandStudy(s).map((i) => i.resolveAsOf)).toEqual(['2023-06-01']);
  });

  test('absent: neither the study input nor the instances carry it, so their inputs stay as they were', () => {
    const s = parseStudyFile(ONE_TASK_STUDY, 's.yaml', catalog);
    expect('resolveAsOf' in s).toBe(false);
    expect('resolveAsOf' in expandStudy(s)[0]!).toBe(false);
  });

  test.each([
    ['2023-02-30', /"2023-02-30" is not a day of the calendar/],
    ['2023-6-1', /YYYY-MM-DD/],
    ['June 2023', /YYYY-MM-DD/],
    ['"2023-06-01T12:00:00Z"', /YYYY-MM-DD/],
    ['1999-12-31', /from 2010 on/],
  ])('%s is refused, naming the file, the line and the field', (value, why) => {
    const [problem] = problemsOf(`${ONE_TASK_STUDY}resolve_as_of: ${value}\n`);
    expect(problem).toMatch(/^s\.yaml:8:\d+: resolve_as_of: /);
    expect(problem).toMatch(why);
  });

  test('a number is refused as not a string', () => {
    expect(problemsOf(`${ONE_TASK_STUDY}resolve_as_of: 20230601\n`)[0]).toMatch(/^s\.yaml:8:\d+: resolve_as_of: .*string/);
  });
});

describe('the date rules (pure)', () => {
  test('leap days and the cutoff instant', () => {
    expect(resolveAsOfProblem('2024-02-29')).toBeNull();
    expect(resolveAsOfProblem('2023-02-29')).toMatch(/not a day/);
    expect(resolveAsOfProblem('2023-13-01')).toMatch(/not a day/);
    expect(resolutionCutoff('2023-06-01')).toBe('2023-06-01T00:00:00Z');
  });
});
