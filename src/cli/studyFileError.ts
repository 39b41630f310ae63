import { studyInputProblem } from '../domain/studySize';

/** A study file that cannot be run: every problem names the file, the line and the field. */
export class StudyFileError extends Error {
  constructor(readonly file: string, readonly problems: string[]) {
    super(`${file} is not a valid study:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/** The study, or the file's error where its input is over what one study workflow may take (`where`: the field's place in the file). */
export function refuseTooLarge<T>(study: T, file: string, where: string, field: string): T {
  const problem = studyInputProblem(study, field);
  if (problem) throw new StudyFileError(file, [`${where}: ${problem}`]);
  return study;
}
