import { ERROR_TYPES } from '../../../src/domain/readme';
import { aggregateReadmeScores, deterministicJudge, scoreReadme, scoreReadmes, type Judge, type ReadmeToScore } from '../../../src/metrics/readme';
import { listReadmeInstances, readGold } from '../../../src/readme/dataset';
import { encondaDir, SMALL_PREDICTIONS, BASE, LOWERCASE, LEVEL0, err } from './realInstances';

const small = (): ReadmeToScore[] => SMALL_PREDICTIONS.map(([ref, predicted]) => ({ instance: ref.name, gold: readGold(encondaDir(), ref), predicted }));

describe('the small prediction set on real instances (deterministic judge), worked by hand', () => {
  // Per file (P = predicted type set, G = gold type set):
  //   BASE      P {E1,E4}  G {E1,E2}  tp1 fp1 fn1; pred0 E1 matches gold E1 (0.6 + 0.1 fix), pred2 E1 finds it used: 1 matched, fix similar: 1
  //   ONLY_E1   P {E2}     G {E1}     tp0 fp1 fn1; nothing matches: fix accuracy 0
  //   ONLY_E2   no answer  G {E2}     tp0 fp0 fn1; fix accuracy 0
  //   LOWERCASE P {E2,E8}  G {E2,E8}  tp2 fp0 fn0; E2 matched with a wrong fix, first E8 matched with the quoted right one, second E8 finds it used: 1/2
  //   LEVEL0    P {E8}     G {}       tp0 fp1 fn0; no gold errors, leaves the accuracy average
  test('type counts and ratios', async () => {
    const s = await scoreReadmes(small(), deterministicJudge);
    expect(s.type).toEqual({ tp: 3, fp: 3, fn: 3, precision: 0.5, recall: 0.5, f1: 0.5 });
    expect(s.files).toBe(5);
    expect(s.files_answered).toBe(4);
    expect(s.accuracy_files).toBe(4);
    expect(s.judge).toBe('deterministic');
  });

  test('per type', async () => {
    const s = await scoreReadmes(small(), deterministicJudge);
    // E1: BASE tp, ONLY_E1 fn. E2: BASE fn, ONLY_E1 fp, ONLY_E2 fn, LOWERCASE tp. E4: BASE fp. E8: LOWERCASE tp, LEVEL0 fp.
    expect(s.per_type.E1).toMatchObject({ tp: 1, fp: 0, fn: 1, precision: 1, recall: 0.5 });
    expect(s.per_type.E1.f1).toBeCloseTo(2 / 3, 12);
    expect(s.per_type.E2).toMatchObject({ tp: 1, fp: 1, fn: 2, precision: 0.5 });
    expect(s.per_type.E2.recall).toBeCloseTo(1 / 3, 12);
    expect(s.per_type.E2.f1).toBeCloseTo(0.4, 12);
    expect(s.per_type.E4).toEqual({ tp: 0, fp: 1, fn: 0, precision: 0, recall: 0, f1: 0 });
    expect(s.per_type.E6).toEqual({ tp: 0, fp: 0, fn: 0, precision: 0, recall: 0, f1: 0 });
    expect(s.per_type.E7).toEqual({ tp: 0, fp: 0, fn: 0, precision: 0, recall: 0, f1: 0 });
    expect(s.per_type.E8).toMatchObject({ tp: 1, fp: 1, fn: 0, precision: 0.5, recall: 1 });
    expect(Object.keys(s.per_type)).toEqual([...ERROR_TYPES]);
  });

  test('accuracies: fix the mean over files with gold errors, description not judged', async () => {
    const s = await scoreReadmes(small(), deterministicJudge);
    expect(s.fix_accuracy).toBeCloseTo((1 + 0 + 0 + 0.5) / 4, 12);
    expect(s.description_accuracy).toBeNull();
    const byName = new Map(s.per_file.map((f) => [f.instance, f]));
    expect(byName.get(BASE.name)!.matches.map((m) => m.gold)).toEqual([0, null, null]);
    expect(byName.get(LOWERCASE.name)!.matches.map((m) => [m.gold, m.fix_similar])).toEqual([[0, false], [1, true], [null, null]]);
    expect(byName.get(LEVEL0.name)!.fix_accuracy).toBeNull();
  });

  test('per-file scores aggregated later give the same as scoring all at once', async () => {
    const files = small();
    const perFile = [];
    for (const f of files.reverse()) perFile.push(await scoreReadme(f.instance, f.gold, f.predicted, deterministicJudge));
    const later = aggregateReadmeScores(perFile, 'deterministic');
    const once = await scoreReadmes(small(), deterministicJudge);
    expect(later.type).toEqual(once.type);
    expect(later.per_type).toEqual(once.per_type);
    expect(later.fix_accuracy).toBeCloseTo(once.fix_accuracy!, 12);
  });

  test('files of another judge are refused', async () => {
    const f = small()[0];
    const scored = await scoreReadme(f.instance, f.gold, f.predicted, deterministicJudge);
    expect(() => aggregateReadmeScores([scored], 'openai:m')).toThrow(`${BASE.name} was scored by judge "deterministic", not "openai:m"`);
  });
});

test('duplicate predicted types collapse; a type outside the taxonomy is a false positive', async () => {
  const gold = readGold(encondaDir(), BASE);
  const f = await scoreReadme(BASE.name, gold, [err('E1', 'a'), err('E1', 'b'), err('E3', 'c'), err('E3', 'd')], deterministicJudge);
  expect(f.type).toEqual({ tp: 1, fp: 1, fn: 1 });
  expect(f.unknown_types).toEqual(['E3']);
  const s = aggregateReadmeScores([f], 'deterministic');
  expect(s.unknown_types).toEqual({ E3: 1 });
});

test('oracle predictions (gold types, golden_answer as fix) on every instance: P = R = F1 = 1, fix accuracy 1', async () => {
  const dir = encondaDir();
  const files = listReadmeInstances(dir).map((ref) => {
    const gold = readGold(dir, ref);
    return { instance: ref.name, gold, predicted: gold.errors.map((e) => err(e.error_type, e.golden_answer, e.error_description)) };
  });
  const s = await scoreReadmes(files, deterministicJudge);
  expect(s.type.precision).toBe(1);
  expect(s.type.recall).toBe(1);
  expect(s.type.f1).toBe(1);
  expect(s.type.fp + s.type.fn).toBe(0);
  for (const t of ERROR_TYPES) expect(s.per_type[t]).toMatchObject({ fp: 0, fn: 0, recall: 1, precision: 1, f1: 1 });
  expect(s.fix_accuracy).toBe(1);
  expect(s.files).toBe(files.length);
});

test('a description judge: its verdicts decide between gold errors of one type and give description accuracy', async () => {
  const gold = {
    errors: [
      { error_type: 'E1', error_description: 'wrong package name', correction_candidates: [], golden_answer: 'pip install a' },
      { error_type: 'E1', error_description: 'missing system library', correction_candidates: [], golden_answer: 'apt-get install b' },
    ],
  };
  const calls: string[] = [];
  const judge: Judge = {
    name: 'fake',
    judgesDescriptions: true,
    judgesFixes: true,
    describesSame: async (p, g) => {
      calls.push(`d:${p}|${g.error_description}`);
      return p === g.error_description;
    },
    fixesSame: async (p, g) => p === g.golden_answer,
  };
  // pred0 scores 0.6 against gold0 and 0.9 against gold1: it takes gold1; pred1 then takes gold0 (0.6, nothing similar).
  const f = await scoreReadme('x', gold, [err('E1', 'no', 'missing system library'), err('E1', 'no', 'other'), err('E2', 'apt-get install b', 'missing system library')], judge);
  expect(f.matches.map((m) => m.gold)).toEqual([1, 0, null]);
  expect(f.matches[0].score).toBeCloseTo(0.9, 12);
  expect(f.matches[1].score).toBe(0.6);
  expect(f.description_accuracy).toBe(0.5);
  expect(f.fix_accuracy).toBe(0);
  // The E2 prediction can never match an E1 gold error (0.3 + 0.1 is not above 0.5): the judge is not asked about it.
  expect(calls.filter((c) => c.startsWith('d:missing system library')).length).toBe(2);
  expect(calls.length).toBe(4);
  const s = aggregateReadmeScores([f], 'fake');
  expect(s.description_accuracy).toBe(0.5);
});
