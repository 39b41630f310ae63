import { ERROR_CLASSES, LANGUAGES, type InstanceRecord } from '../../domain/instance';
import { mulberry32 } from './prng';

const AGENTS = ['aider', 'claude', 'codex', 'gemini', 'static'];
const TRIALS = 5;
const DOMAINS = ['Data Processing', 'Cryptography', 'Image Processing', 'Networking', 'Text Processing', 'Compression'];
const VOCABULARY = 150;

/**
 * `count` instance records that look like a study's (agents x languages x tasks x trials, with
 * failures, repairs, errors and overlapping dependency sets), the same for the same seed.
 */
export function syntheticRecords(count: number, seed = 1): InstanceRecord[] {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const names = (language: string, size: number) =>
    [...new Set(Array.from({ length: size }, () => `${language}-pkg-${Math.floor(random() ** 2 * VOCABULARY)}`))];

  const records: InstanceRecord[] = [];
  for (let task = 1; records.length < count; task += 1) {
    const domain = pick(DOMAINS);
    for (const language of LANGUAGES) {
      const stdlibSufficient = random() < 0.25;
      for (const agent of AGENTS) {
        for (let trial = 1; trial <= TRIALS && records.length < count; trial += 1) {
          const u = random();
          const status = u < 0.02 ? 'error' : u < 0.12 ? 'failed' : 'success';
          const firstOk = status === 'success' && random() < 0.6;
          const declared = names(language, stdlibSufficient && random() < 0.5 ? 0 : Math.floor(random() * 7));
          const installed = [...declared, ...names(language, Math.floor(random() * 12))];
          const traced =
            status === 'success'
              ? [...new Set([...installed.filter(() => random() < 0.6), ...names(language, Math.floor(random() * 3))])]
              : null;
          records.push({
            schema: 'envgap.instance/v1',
            study: 'synthetic',
            agent,
            language,
            task: `t_${String(task).padStart(5, '0')}`,
            trial,
            domain,
            status,
            first_attempt_success: firstOk,
            repair_depth: status !== 'success' ? null : firstOk ? 0 : 1 + Math.floor(random() * 10),
            first_error_class: firstOk ? null : pick(ERROR_CLASSES),
            declared,
            installed: [...new Set(installed)],
            traced: status === 'success' ? traced : null,
            traced_build: null,
            stdlib_sufficient: stdlibSufficient,
            ...(status === 'error' ? { error: { kind: 'synthetic', message: 'infrastructure fault' } } : {}),
          });
        }
      }
    }
  }
  return records;
}
