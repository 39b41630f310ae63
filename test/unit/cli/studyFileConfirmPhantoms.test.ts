import { loadCatalog } from '../../../src/catalog/catalog';
import { parseStudyFile, StudyFileError } from '../../../src/cli/studyFile';
import { expandStudy } from '../../../src/domain/study';
import { ONE_TASK_STUDY } from '../../helpers/oneTaskStudy';

const catalog = loadCatalog();
const base = ONE_TASK_STUDY;

describe('confirm_phantoms in a study file', () => {
  test('absent: neither the study nor its instances carry it, so their inputs stay as before', () => {
    const s = parseStudyFile(base, 's.yaml', catalog);
    expect('confirmPhantoms' in s).toBe(false);
    expect('confirmPhantoms' in expandStudy(s)[0]!).toBe(false);
    expect('confirmPhantoms' in parseStudyFile(`${base}confirm_phantoms: false\n`, 's.yaml', catalog)).toBe(false);
  });

  test('true: every instance carries it, with the default trial budget or confirm_max_trials', () => {
    const s = parseStudyFile(`${base}confirm_phantoms: true\n`, 's.yaml', catalog);
    expect(s.confirmPhantoms).toEqual({ maxTrials: 24 });
    expect(expandStudy(s)[0]!.confirmPhantoms).toEqual({ maxTrials: 24 });
    expect(parseStudyFile(`${base}confirm_phantoms: true\nconfirm_max_trials: 5\n`, 's.yaml', catalog).confirmPhantoms).toEqual({ maxTrials: 5 });
  });

  test('confirm_max_trials without confirm_phantoms, or out of range, is refused with its line', () => {
    const problems = (text: string) => {
      try {
        parseStudyFile(text, 's.yaml', catalog);
      } catch (err) {
        if (err instanceof StudyFileError) return err.problems;
        throw err;
      }
      throw new Error('accepted');
    };
    expect(problems(`${base}confirm_max_trials: 5\n`)).toEqual(['s.yaml:8:21: confirm_max_trials: confirm_max_trials is for phantom confirmation: give confirm_phantoms: true too']);
    expect(problems(`${base}confirm_phantoms: true\nconfirm_max_trials: 0\n`)[0]).toMatch(/^s\.yaml:9:21: confirm_max_trials: /);
    expect(problems(`${base}confirm_phantoms: yes\n`)[0]).toMatch(/^s\.yaml:8:19: confirm_phantoms: /);
  });
});
