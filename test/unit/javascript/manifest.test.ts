import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePackageJson } from '../../../src/ecosystems/javascript/manifest';
import { manifestError } from '../../helpers/manifestError';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/manifests/javascript', name), 'utf8');
const parse = (text: string) => parsePackageJson(text, { fileName: 'package.json' });

describe('parsePackageJson: real-world manifests', () => {
  it('reads every section, D1 being the keys of "dependencies" as written, with any kind of spec', () => {
    const parsed = parse(fixture('express-api.package.json'));
    expect(parsed.dependencies).toEqual([
      { name: 'express', spec: '^4.18.2' },
      { name: 'mongoose', spec: '~8.0.3' },
      { name: 'dotenv', spec: '16.3.1' },
      { name: '@aws-sdk/client-s3', spec: '^3.470.0' },
      { name: 'cors', spec: '*' },
      { name: 'lodash4', spec: 'npm:lodash@^4.17.21' },
      { name: 'shared', spec: 'workspace:^' },
      { name: 'local-utils', spec: 'file:../local-utils' },
      { name: 'left-pad', spec: 'git+https://github.com/left-pad/left-pad.git#v1.3.0' },
      { name: 'tarball', spec: 'https://registry.example.com/tarball-1.0.0.tgz' },
      { name: 'debug', spec: 'latest' },
      { name: 'JSONStream', spec: '^1.3.5' },
    ]);
    expect(parsed.devDependencies.map((d) => d.name)).toEqual(['jest', 'nodemon', '@types/express']);
    expect(parsed.optionalDependencies).toEqual([{ name: 'fsevents', spec: '^2.3.3' }]);
    expect(parsed.peerDependencies).toEqual([{ name: 'react', spec: '>=17' }]);
    expect(parsed.warnings).toEqual([]);
  });

  it('accepts a byte order mark and CRLF line ends', () => {
    expect(parse(fixture('bom-crlf.package.json')).dependencies).toEqual([{ name: 'axios', spec: '^1.6.2' }]);
  });

  it('returns empty sections for a manifest without dependencies', () => {
    expect(parse('{"name": "x", "version": "1.0.0"}')).toEqual({
      dependencies: [], devDependencies: [], optionalDependencies: [], peerDependencies: [], warnings: [],
    });
    expect(parse('{"dependencies": {}}').dependencies).toEqual([]);
  });

  it('keeps a name that is in both dependencies and devDependencies in each', () => {
    const parsed = parse('{"dependencies": {"chalk": "^5"}, "devDependencies": {"chalk": "^4"}}');
    expect(parsed.dependencies).toEqual([{ name: 'chalk', spec: '^5' }]);
    expect(parsed.devDependencies).toEqual([{ name: 'chalk', spec: '^4' }]);
  });

  it('keeps the last of a repeated key, as JSON.parse does, with a warning naming the line', () => {
    const parsed = parse('{\n  "dependencies": {\n    "uuid": "^8",\n    "uuid": "^9"\n  }\n}\n');
    expect(parsed.dependencies).toEqual([{ name: 'uuid', spec: '^9' }]);
    expect(parsed.warnings).toEqual(['package.json:4: "uuid" is repeated in dependencies; the last one counts']);
  });

  it('does not confuse a nested "dependencies" key with the top-level one', () => {
    const text = '{\n  "overrides": {"dependencies": 3},\n  "dependencies": [1]\n}';
    expect(manifestError(() => parse(text)).line).toBe(3);
  });

  it('treats "__proto__" as an ordinary key', () => {
    expect(parse('{"dependencies": {"__proto__": "1.0.0", "a": "1"}}').dependencies).toEqual([
      { name: '__proto__', spec: '1.0.0' },
      { name: 'a', spec: '1' },
    ]);
  });
});

describe('parsePackageJson: rejected manifests', () => {
  it.each([
    ['{\n  "name": "x",\n  "dependencies": {\n    "express": "^4",\n  }\n}\n', 5],
    ['{\n  "name": "x"\n  "version": "1.0.0"\n}', 3],
    ['{\n  // a comment\n  "name": "x"\n}', 2],
    ['{\n  "dependencies": {\n    "a": "1"\n', 3],
    ['{\n  "name": \'x\'\n}', 2],
    ['{"name": "x"} trailing', 1],
    ['', 1],
    ['{\n  "a": "bad \u0001 control"\n}', 2],
    ['{\n  "a": tru\n}', 2],
  ])('rejects invalid JSON %j at its line', (text, line) => {
    const err = manifestError(() => parse(text));
    expect(err.line).toBe(line);
    expect(err.message).toMatch(new RegExp(`^package\\.json:${line}: invalid JSON: `));
  });

  it.each([['[]'], ['null'], ['"x"'], ['42']])('rejects a top level that is not an object: %s', (text) => {
    expect(manifestError(() => parse(text)).message).toMatch(/^package\.json:1: package\.json must be a JSON object, not /);
  });

  it.each([
    ['dependencies', '["express"]', 'an array'],
    ['devDependencies', '"jest"', 'a string'],
    ['optionalDependencies', 'null', 'null'],
    ['peerDependencies', '1', 'a number'],
  ])('rejects a %s section that is not an object, naming the field and its line', (field, value, kind) => {
    const err = manifestError(() => parse(`{\n  "name": "x",\n  "${field}": ${value}\n}`));
    expect(err.message).toBe(`package.json:3: "${field}" must be an object of package names to version specs, not ${kind}`);
  });

  it('rejects a spec that is not a string, naming the entry and its line', () => {
    const err = manifestError(() => parse('{\n  "dependencies": {\n    "express": "^4",\n    "lodash": 4\n  }\n}'));
    expect(err.message).toBe('package.json:4: "dependencies"."lodash" must be a version string, not a number');
  });

  it('rejects an empty package name', () => {
    expect(manifestError(() => parse('{"dependencies": {"": "1.0.0"}}')).reason).toBe('"dependencies" has an empty package name');
  });
});
