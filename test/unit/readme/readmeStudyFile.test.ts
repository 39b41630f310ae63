import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseReadmeStudyFile } from '../../../src/cli/readmeStudyFile';
import { listReadmeInstances } from '../../../src/readme/dataset';
import { referenceData } from '../../helpers/data';

const data = referenceData('data', 'enconda');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-readme-study-'));
const file = path.join(dir, 'study.yaml');
const parse = (body: string) => parseReadmeStudyFile(`name: s\nprotocol: readme\ndata: ${data}\n${body}`, file, listReadmeInstances);
const agents = 'agents:\n  - { kind: oracle, name: oracle }\n';

test('instances with their pinned repository, from the archives where there is one', () => {
  const s = parse(`instances: [jaraco_inflect_error_readme_1, jazzband_tablib_error_readme_2]\n${agents}`);
  expect(s.instances).toHaveLength(2);
  expect(s.instances).toEqual(expect.arrayContaining([
    { name: 'jazzband_tablib_error_readme_2', repoFolder: 'error_gen_jazzband_tablib', repository: 'jazzband/tablib', source: { kind: 'archive', path: path.join(data, 'repos', 'jazzband__tablib.tar.gz') } },
    { name: 'jaraco_inflect_error_readme_1', repoFolder: 'error_gen_jaraco_inflect', repository: 'jaraco/inflect', source: { kind: 'archive', path: path.join(data, 'repos', 'jaraco__inflect.tar.gz') } },
  ]));
  expect(s).toMatchObject({ judge: { kind: 'deterministic' }, pass: { run: true, timeoutS: 600 }, trials: 1 });
});

test('a repository without an archive: cloned at its pinned revision when a git host is given, else no source', () => {
  const name = listReadmeInstances(data).find((r) => r.repo === 'biothings_biothings.api')!.name;
  const none = parse(`instances: [${name}]\n${agents}`);
  expect(none.instances[0]).toMatchObject({ repository: 'biothings/biothings.api', source: null });
  const git = parse(`instances: [${name}]\nsources: { git: https://git.example.org }\n${agents}`);
  expect(git.instances[0]!.source).toEqual({ kind: 'git', url: 'https://git.example.org/biothings/biothings.api.git', commit: '6573562773ed66b9428aead1ba7ac187005bb031' });
});

test('a split by repository keeps every repository on one side', () => {
  const test = parse(`instances: all\nsplit: { by: repo, seed: 3, test_share: 0.2 }\n${agents}`);
  const train = parse(`instances: all\nsplit: { by: repo, seed: 3, test_share: 0.2, part: train }\n${agents}`);
  expect(test.instances.length + train.instances.length).toBe(4201);
  const testRepos = new Set(test.instances.map((i) => i.repoFolder));
  expect(train.instances.some((i) => testRepos.has(i.repoFolder))).toBe(false);
  expect(testRepos.size).toBe(Math.ceil(0.2 * new Set(listReadmeInstances(data).map((r) => r.repo)).size));
});

test.each([
  ['an instance not in the data set', `instances: [no_such_readme]\n${agents}`, /study\.yaml:\d+:\d+: instances: not in the data set: no_such_readme/],
  ['a repository not in the data set', `instances: { repos: [nobody_nothing] }\n${agents}`, /instances: no instances of repository nobody_nothing/],
  ['an unknown agent kind', 'instances: all\nagents:\n  - { kind: magic, name: m }\n', /study\.yaml:\d+:\d+: agents\[0\]\.kind/],
  ['a judge without its model', `instances: all\njudge: { kind: openai, base_url: http://127.0.0.1:1/v1 }\n${agents}`, /judge/],
  ['a share out of range', `instances: all\nsplit: { by: repo, seed: 1, test_share: 1.5 }\n${agents}`, /split\.test_share/],
  ['an agent twice', 'instances: all\nagents:\n  - { kind: oracle, name: o }\n  - { kind: oracle, name: o }\n', /agents\.1\.name.*listed twice|agent "o" is listed twice/],
])('%s is an error naming the file and the field', (_what, body, message) => {
  expect(() => parse(body)).toThrow(message);
});

test('the whole data set fits a study input well under Temporal\'s 2 MB payload limit', () => {
  const size = Buffer.byteLength(JSON.stringify(parse(`instances: all\n${agents}`)));
  expect(size).toBeLessThan(1_000_000);
});

test('a data folder that is not the data set is named', () => {
  expect(() => parseReadmeStudyFile(`name: s\nprotocol: readme\ndata: ${dir}\ninstances: all\n${agents}`, file, listReadmeInstances)).toThrow(/data: no EnConda-Bench data set at/);
});
