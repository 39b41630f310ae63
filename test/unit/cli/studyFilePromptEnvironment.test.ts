import { loadCatalog } from '../../../src/catalog/catalog';
import { parseStudyFile, StudyFileError } from '../../../src/cli/studyFile';
import { expandStudy, type StudyInput } from '../../../src/domain/study';
import { ONE_TASK_STUDY } from '../../helpers/oneTaskStudy';

const catalog = loadCatalog();
const base = ONE_TASK_STUDY;

describe('prompt_environment in a study file', () => {
  test('absent: actual, the images\' real facts; every instance carries it', () => {
    const s = parseStudyFile(base, 's.yaml', catalog);
    expect(s.promptEnvironment).toBe('actual');
    expect(expandStudy(s)[0]!.promptEnvironment).toBe('actual');
  });

  test('paper: the published text, carried the same way', () => {
    const s = parseStudyFile(`${base}prompt_environment: paper\n`, 's.yaml', catalog);
    expect(expandStudy(s).map((i) => i.promptEnvironment)).toEqual(['paper']);
  });

  test('a study input without it (started by an older envgap) expands to instances without it, as before', () => {
    const { promptEnvironment: _dropped, ...older } = parseStudyFile(base, 's.yaml', catalog);
    expect('promptEnvironment' in expandStudy(older as StudyInput)[0]!).toBe(false);
  });

  test('anything else is refused with its line', () => {
    try {
      parseStudyFile(`${base}prompt_environment: ubuntu\n`, 's.yaml', catalog);
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(StudyFileError);
      expect((err as StudyFileError).problems[0]).toMatch(/^s\.yaml:8:21: prompt_environment: .*"actual".*"paper"/);
    }
  });
});
