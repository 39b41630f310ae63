/**
 * A study's input is the first event of its workflow and is carried into every run of its
 * continue-as-new chain. Temporal refuses a payload over 2 MiB (its default blob size limit) and warns
 * past 512 KiB; a study over this bound is refused before it starts, naming the field that makes it
 * large, instead of failing inside the server. Pure: the CLI checks a parsed study file with it.
 */
export const STUDY_INPUT_MAX_BYTES = 1536 * 1024;

/** The input's size as Temporal's JSON payload converter encodes it. */
export function studyInputBytes(input: unknown): number {
  return new TextEncoder().encode(JSON.stringify(input)).length;
}

/** Why the study cannot start as one workflow (`field`: what makes it large, as the study file names it), or null. */
export function studyInputProblem(input: unknown, field: string): string | null {
  const bytes = studyInputBytes(input);
  if (bytes <= STUDY_INPUT_MAX_BYTES) return null;
  const kib = (b: number) => `${Math.ceil(b / 1024).toLocaleString('en-US')} KiB`;
  return `the study's input is ${kib(bytes)}, over the ${kib(STUDY_INPUT_MAX_BYTES)} a study workflow's input may take (Temporal refuses payloads over 2 MiB); split the study into several by ${field}`;
}
