import { deterministicJudge, normaliseFix } from '../../../src/metrics/readme';

const gold = (golden_answer: string) => ({ error_type: 'E1', error_description: 'd', correction_candidates: [], golden_answer });

test('normalisation: whitespace collapsed, quotes unified, surrounding quotes and backticks stripped', () => {
  expect(normaliseFix('  pip   install\n\tinflect ')).toBe('pip install inflect');
  expect(normaliseFix('`pip install inflect`')).toBe('pip install inflect');
  expect(normaliseFix('```\npip install inflect\n```')).toBe('pip install inflect');
  expect(normaliseFix('"pip install inflect"')).toBe('pip install inflect');
  expect(normaliseFix("pip install 'inflect>=7'")).toBe('pip install "inflect>=7"');
  expect(normaliseFix('pip install \u201Cinflect\u201D')).toBe('pip install "inflect"');
  expect(normaliseFix('Pip install')).not.toBe(normaliseFix('pip install'));
});

test('a fix is similar when it equals golden_answer after normalisation; descriptions get no verdict', async () => {
  expect(await deterministicJudge.fixesSame(' `pip install inflect` ', gold('pip install inflect'))).toBe(true);
  expect(await deterministicJudge.fixesSame("print('x')", gold('print("x")'))).toBe(true);
  expect(await deterministicJudge.fixesSame('pip install inflection', gold('pip install inflect'))).toBe(false);
  expect(await deterministicJudge.describesSame('anything', gold('x'))).toBeNull();
  expect(deterministicJudge.judgesDescriptions).toBe(false);
  expect(deterministicJudge.name).toBe('deterministic');
});
