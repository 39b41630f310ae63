import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAggregators, tracedThroughAggregators, type Aggregator } from '../../../src/ecosystems/java/aggregators';
import { parsePom } from '../../../src/ecosystems/java/manifest';
import { parseDependencyScopes } from '../../../src/ecosystems/java/resolve';
import { finalLayers } from '../../../src/ecosystems/finalLayers';
import { tracedLayer } from '../../../src/ecosystems/layers';

// A Spring Boot 3.5.7 service as agents write it (web, validation, lombok, starter-test), built and run
// as the Java runner does: test/fixtures/outputs/README.md says how each file was made.
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/outputs/java-spring-boot-todo', name), 'utf8');
const dependencyList = fixture('dependencies.txt');
const classLoadLog = fixture('classload.txt');
const classlessJars = fixture('classless-jars.jsonl');
const STARTERS = ['spring-boot-starter', 'spring-boot-starter-json', 'spring-boot-starter-logging', 'spring-boot-starter-tomcat', 'spring-boot-starter-validation', 'spring-boot-starter-web'];

describe('Java aggregators on a real Spring Boot service', () => {
  const installed = parseDependencyScopes(dependencyList).classpath;
  const loaded = tracedLayer('java', { runTrace: '', classLoadLog });

  it('finds the starters, the jars with no class, with what their POMs bring', () => {
    const aggregators = parseAggregators(classlessJars);
    expect(aggregators.map((a) => a.artifactId).sort()).toEqual(STARTERS);
    expect(aggregators.find((a) => a.artifactId === 'spring-boot-starter-web')!.brings).toEqual(['spring-boot-starter', 'spring-boot-starter-json', 'spring-boot-starter-tomcat', 'spring-web', 'spring-webmvc']);
  });

  it('no starter is loaded by itself, so each was a phantom; each counts as traced through what it brought', () => {
    for (const starter of STARTERS) expect(loaded).not.toContain(starter);
    expect(loaded).toEqual(expect.arrayContaining(['spring-boot', 'spring-webmvc', 'hibernate-validator', 'tomcat-embed-core', 'logback-classic', 'jackson-databind']));
    expect(tracedThroughAggregators(parseAggregators(classlessJars), loaded, installed)).toEqual(STARTERS);
  });

  it('through the final layers: D3 gains the starters, listed apart; the declared phantoms left are lombok (compile time) and the test starter', () => {
    const layers = finalLayers('java', { dependencyList, runTrace: '', classLoadLog, classlessJars, buildTrace: '' }, {}, { installed: true, traced: true });
    expect(layers.tracedAggregated).toEqual(STARTERS);
    expect(layers.traced).toEqual([...new Set([...loaded, ...STARTERS])].sort());
    expect(layers.tracedBase).toEqual([]);
    const declared = parsePom(fixture('pom.xml'), { fileName: 'pom.xml' }).dependencies.map((d) => d.name);
    expect(declared.filter((name) => !layers.traced!.includes(name))).toEqual(['lombok', 'spring-boot-starter-test']);
  });

  it('an execution without the listing (one from before) traces no starter and says nothing of them', () => {
    const layers = finalLayers('java', { dependencyList, runTrace: '', classLoadLog, buildTrace: '' }, {}, { installed: true, traced: true });
    expect(layers.traced).toEqual(loaded);
    expect(layers).not.toHaveProperty('tracedAggregated');
  });
});

describe('tracedThroughAggregators', () => {
  const starter = (artifactId: string, brings: string[]): Aggregator => ({ artifactId, brings });

  it('follows an aggregator through another one, and leaves one whose brought names were not traced', () => {
    const aggregators = [starter('spring-boot-starter-data-redis', ['spring-boot-starter', 'spring-data-redis', 'lettuce-core']), starter('spring-boot-starter', ['spring-boot']), starter('spring-boot-starter-actuator', ['spring-boot-actuator'])];
    const installed = ['spring-boot-starter-data-redis', 'spring-boot-starter', 'spring-boot', 'spring-data-redis', 'lettuce-core', 'spring-boot-starter-actuator', 'spring-boot-actuator'];
    expect(tracedThroughAggregators(aggregators, ['spring-boot'], installed)).toEqual(['spring-boot-starter', 'spring-boot-starter-data-redis']);
  });

  it('counts only aggregators on the run classpath, and none already traced', () => {
    const aggregators = [starter('a-starter', ['lib']), starter('loaded-starter', ['lib'])];
    expect(tracedThroughAggregators(aggregators, ['lib', 'loaded-starter'], ['lib', 'loaded-starter'])).toEqual([]);
  });
});

describe('parseAggregators', () => {
  const pom = (deps: string) => `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version><dependencies>${deps}</dependencies></project>`;
  const dep = (artifactId: string, extra = '') => `<dependency><groupId>g</groupId><artifactId>${artifactId}</artifactId><version>1</version>${extra}</dependency>`;
  const line = (artifactId: string, text: string | null) => JSON.stringify({ file: `/work/target/dependency/g/${artifactId}/1/${artifactId}-1.jar`, artifactId, pom: text });

  it('leaves out what a POM does not bring to a consumer: test, provided, system and optional dependencies', () => {
    const text = line('bundle', pom([dep('kept'), dep('runtime-kept', '<scope>runtime</scope>'), dep('t', '<scope>test</scope>'), dep('p', '<scope>provided</scope>'), dep('o', '<optional>true</optional>')].join('')));
    expect(parseAggregators(text)).toEqual([{ artifactId: 'bundle', brings: ['kept', 'runtime-kept'] }]);
  });

  it('a POM absent or unreadable brings nothing; blank lines are skipped; a line that is no entry throws', () => {
    expect(parseAggregators(`${line('no-pom', null)}\n\n${line('bad', '<project><dependencies><dependency>')}\n`)).toEqual([
      { artifactId: 'no-pom', brings: [] },
      { artifactId: 'bad', brings: [] },
    ]);
    expect(() => parseAggregators('not json\n')).toThrow(/classlessJars line 1/);
  });
});
