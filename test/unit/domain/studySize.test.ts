import { STUDY_INPUT_MAX_BYTES, studyInputBytes, studyInputProblem } from '../../../src/domain/studySize';
import { refuseTooLarge, StudyFileError } from '../../../src/cli/studyFileError';

const instances = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `owner_repository_error_readme_${i}`, repoFolder: `error_gen_owner_repository_${i}`, repository: `owner/repository-${i}`, source: { kind: 'git', url: `https://example.invalid/owner/repository-${i}.git`, commit: 'a'.repeat(40) } }));

test('the full EnConda set (4,201 READMEs) fits one study input; a study many times its size does not', () => {
  expect(studyInputBytes({ instances: instances(4201) })).toBeLessThan(STUDY_INPUT_MAX_BYTES);
  expect(studyInputProblem({ instances: instances(4201) }, 'instances')).toBeNull();
  const problem = studyInputProblem({ instances: instances(20_000) }, 'instances');
  expect(problem).toMatch(/^the study's input is [\d,]+ KiB, over the 1,536 KiB .* split the study into several by instances$/);
});

test('sizes count UTF-8 bytes, as the payload converter encodes them', () => {
  expect(studyInputBytes({ a: 'é' })).toBe(JSON.stringify({ a: 'é' }).length + 1);
});

test('a study file over the bound is refused naming the file, the line and the field; one within it is returned as it is', () => {
  const small = { instances: instances(3) };
  expect(refuseTooLarge(small, 'r.yaml', 'r.yaml:4:1: instances', 'instances')).toBe(small);
  let err: unknown;
  try {
    refuseTooLarge({ instances: instances(20_000) }, 'r.yaml', 'r.yaml:4:1: instances', 'instances');
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(StudyFileError);
  expect((err as StudyFileError).message).toMatch(/^r\.yaml is not a valid study:\n {2}r\.yaml:4:1: instances: the study's input is/);
});
