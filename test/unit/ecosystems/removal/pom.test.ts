import * as fs from 'node:fs';
import * as path from 'node:path';
import { declaredDependencies } from '../../../../src/ecosystems/declared';
import { pomDependencies } from '../../../../src/ecosystems/removal/pomDependencies';
import { withoutMavenArtifacts, withoutMavenDependencies } from '../../../../src/ecosystems/removal/pomRemoval';
import { projectWithout } from '../../../../src/ecosystems/removal';

const pom = fs.readFileSync(path.resolve(__dirname, '../../../../corpus/quickstart/java/p_13/1/0/pom.xml'), 'utf8');
const d1 = (files: Record<string, string>) => declaredDependencies('java', files).names;

describe('pom.xml without a dependency', () => {
  test("the quickstart's phantom (commons-lang3): its <dependency> goes with its lines, nothing else changes", () => {
    const r = withoutMavenDependencies({ 'pom.xml': pom }, ['commons-lang3']);
    expect(r.removed).toEqual(['commons-lang3']);
    const out = r.files['pom.xml']!;
    expect(d1(r.files)).toEqual(['gson']);
    expect(pom.length - out.length).toBe(
      '    <dependency>\n      <groupId>org.apache.commons</groupId>\n      <artifactId>commons-lang3</artifactId>\n      <version>3.14.0</version>\n    </dependency>\n'.length,
    );
    expect(out).toContain('<artifactId>maven-jar-plugin</artifactId>');
  });

  test('dependencyManagement, plugin dependencies, profiles and comments are not the section D1 reads: left alone', () => {
    const text = `<project>
  <dependencyManagement><dependencies><dependency><groupId>g</groupId><artifactId>a</artifactId></dependency></dependencies></dependencyManagement>
  <!-- <dependencies><dependency><artifactId>a</artifactId></dependency></dependencies> -->
  <properties><lib.name>b</lib.name></properties>
  <dependencies>
    <dependency><groupId>g</groupId><artifactId>a</artifactId></dependency>
    <dependency><groupId>g</groupId><artifactId>\${lib.name}</artifactId></dependency>
  </dependencies>
  <build><plugins><plugin><artifactId>p</artifactId><dependencies><dependency><artifactId>a</artifactId></dependency></dependencies></plugin></plugins></build>
</project>`;
    expect(pomDependencies(text).map((d) => d.artifactId)).toEqual(['a', 'b']);
    const r = withoutMavenDependencies({ 'pom.xml': text }, ['a', 'b']);
    expect(r.removed).toEqual(['a', 'b']);
    expect(d1(r.files)).toEqual([]);
    expect(r.files['pom.xml']!.match(/<artifactId>a<\/artifactId>/g)).toHaveLength(3);
  });

  test('a name not declared is not found', () => {
    expect(withoutMavenDependencies({ 'pom.xml': pom }, ['junit'])).toMatchObject({ removed: [], notFound: ['junit'] });
  });
});

describe('pom.xml without an installed artifact (bloat)', () => {
  test('every declared dependency excludes it (groupId *), in its own <exclusions> where it has one', () => {
    const text = `<project>
  <dependencies>
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>2.17.0</version>
    </dependency>
    <dependency>
      <groupId>x</groupId>
      <artifactId>y</artifactId>
      <exclusions>
        <exclusion><groupId>z</groupId><artifactId>z</artifactId></exclusion>
      </exclusions>
    </dependency>
  </dependencies>
</project>
`;
    const r = withoutMavenArtifacts({ 'pom.xml': text }, ['jackson-annotations']);
    const out = r.files['pom.xml']!;
    expect(out).toContain(`      <version>2.17.0</version>
      <exclusions>
        <exclusion>
          <groupId>*</groupId>
          <artifactId>jackson-annotations</artifactId>
        </exclusion>
      </exclusions>
    </dependency>`);
    expect(out).toContain(`        <exclusion><groupId>z</groupId><artifactId>z</artifactId></exclusion>
        <exclusion>
          <groupId>*</groupId>
          <artifactId>jackson-annotations</artifactId>
        </exclusion>
      </exclusions>`);
    expect(d1(r.files)).toEqual(['jackson-databind', 'y']);
    expect(r.removed).toEqual(['jackson-annotations']);
  });

  test('a declared one goes from the dependencies and is excluded from the others', () => {
    const r = withoutMavenArtifacts({ 'pom.xml': pom }, ['commons-lang3']);
    expect(d1(r.files)).toEqual(['gson']);
    expect(r.files['pom.xml']).toContain('<artifactId>commons-lang3</artifactId>\n        </exclusion>');
  });
});

describe("a trial's project (projectWithout)", () => {
  test('declared names out of the manifest, installed ones excluded (Maven); where the ecosystem cannot exclude, installed ones are not found', () => {
    const r = projectWithout('java', { 'pom.xml': pom }, { declared: ['commons-lang3'], installed: ['error_prone_annotations'] });
    expect(d1(r.files)).toEqual(['gson']);
    expect(r.files['pom.xml']).toContain('<artifactId>error_prone_annotations</artifactId>');
    expect(r.notFound).toEqual([]);
    expect(projectWithout('python', { 'requirements.txt': 'a\nb\n' }, { declared: ['a'], installed: ['c'] })).toEqual({ files: { 'requirements.txt': 'b\n' }, notFound: ['c'] });
  });
});
