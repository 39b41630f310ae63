import * as fs from 'node:fs';
import * as path from 'node:path';
import { JavaDependency, parsePom } from '../../../src/ecosystems/java/manifest';
import { manifestError } from '../../helpers/manifestError';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/manifests/java', name), 'utf8');
const parse = (xml: string) => parsePom(xml, { fileName: 'pom.xml' });
const names = (xml: string) => parse(xml).dependencies.map((d) => d.name);
const pom = (dependencies: string, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>g</groupId>\n  <artifactId>app</artifactId>\n  <version>1.0</version>\n${extra}  <dependencies>\n${dependencies}  </dependencies>\n</project>\n`;
const dep = (artifactId: string, more = '') => `    <dependency><groupId>g</groupId><artifactId>${artifactId}</artifactId>${more}</dependency>\n`;
const dependency = (fields: Partial<JavaDependency> & { name: string }): JavaDependency => ({
  groupId: null, version: null, scope: null, type: null, optional: false, ...fields,
});

describe('parsePom: real-world poms', () => {
  it('reads a Spring Boot starter project whose versions come from the parent', () => {
    const { dependencies, warnings } = parse(fixture('spring-boot-starter.pom.xml'));
    expect(dependencies).toEqual([
      dependency({ name: 'spring-boot-starter-web', groupId: 'org.springframework.boot' }),
      dependency({ name: 'spring-boot-starter-data-jpa', groupId: 'org.springframework.boot' }),
      dependency({ name: 'h2', groupId: 'com.h2database', scope: 'runtime' }),
      dependency({ name: 'lombok', groupId: 'org.projectlombok', optional: true }),
      dependency({ name: 'spring-boot-starter-test', groupId: 'org.springframework.boot', scope: 'test' }),
    ]);
    expect(warnings).toEqual([]);
  });

  it('resolves property-driven versions, nested properties included, and skips plugin dependencies', () => {
    const { dependencies, warnings } = parse(fixture('json-tools.pom.xml'));
    expect(dependencies.map((d) => [d.name, d.version, d.scope])).toEqual([
      ['gson', '2.10.1', null],
      ['jackson-databind', '2.16.0', null],
      ['commons-lang3', '3.14.0', null],
      ['slf4j-simple', '2.0.9', null],
      ['junit-jupiter', '5.10.1', 'test'],
    ]);
    expect(dependencies.map((d) => d.name)).not.toContain('asm');
    expect(warnings).toEqual([]);
  });

  it('does not count dependencyManagement, BOM imports or profiles; resolves project coordinates', () => {
    const { dependencies } = parse(fixture('bom-imports.pom.xml'));
    expect(dependencies.map((d) => d.name)).toEqual(['okhttp', 'jackson-databind', 'http-client-core', 'junit-jupiter']);
    expect(dependencies[0].version).toBeNull();
    expect(dependencies[2]).toEqual(
      dependency({ name: 'http-client-core', groupId: 'org.acme', version: '2.3.0', type: 'test-jar', scope: 'test' }),
    );
  });

  it('counts test-scoped dependencies (the paper counts every artifactId of <dependencies>)', () => {
    expect(names(pom(dep('junit', '<version>4.13.2</version><scope>test</scope>')))).toEqual(['junit']);
  });
});

describe('parsePom: structure', () => {
  it('accepts a single dependency as well as several', () => {
    expect(names(pom(dep('gson')))).toEqual(['gson']);
    expect(names(pom(dep('gson') + dep('guava') + dep('jsoup')))).toEqual(['gson', 'guava', 'jsoup']);
  });

  it('returns nothing for an empty or missing <dependencies>', () => {
    expect(names(pom(''))).toEqual([]);
    expect(names('<project><modelVersion>4.0.0</modelVersion><dependencies/></project>')).toEqual([]);
    expect(names('<project><modelVersion>4.0.0</modelVersion></project>')).toEqual([]);
  });

  it('strips namespace prefixes', () => {
    const xml = `<pom:project xmlns:pom="http://maven.apache.org/POM/4.0.0">
  <pom:dependencies>
    <pom:dependency><pom:groupId>com.google.guava</pom:groupId><pom:artifactId>guava</pom:artifactId><pom:version>33.0.0-jre</pom:version></pom:dependency>
  </pom:dependencies>
</pom:project>`;
    expect(parse(xml).dependencies).toEqual([dependency({ name: 'guava', groupId: 'com.google.guava', version: '33.0.0-jre' })]);
  });

  it('ignores comments, including commented-out dependencies and comments inside values', () => {
    const xml = pom(
      '    <!-- <dependency><groupId>x</groupId><artifactId>commented-out</artifactId></dependency> -->\n' +
        dep('jsoup', '<version><!-- latest -->1.17.1</version>'),
    );
    expect(parse(xml).dependencies).toEqual([dependency({ name: 'jsoup', groupId: 'g', version: '1.17.1' })]);
  });

  it('trims whitespace and newlines around values, and reads CDATA', () => {
    const xml = pom(`    <dependency>
      <groupId>
        org.apache.commons
      </groupId>
      <artifactId>
        commons-csv
      </artifactId>
      <version><![CDATA[1.10.0]]></version>
      <scope>   test   </scope>
    </dependency>
`);
    expect(parse(xml).dependencies).toEqual([dependency({ name: 'commons-csv', groupId: 'org.apache.commons', version: '1.10.0', scope: 'test' })]);
  });

  it('decodes predefined entities and character references in values', () => {
    expect(parse(pom(dep('a&amp;b', '<version>&#49;.&#x30;</version>'))).dependencies[0]).toMatchObject({ name: 'a&b', version: '1.0' });
  });

  it('accepts a byte order mark and CRLF line ends', () => {
    expect(names('\uFEFF' + pom(dep('gson')).replace(/\n/g, '\r\n'))).toEqual(['gson']);
  });

  it('merges repeated <dependencies> sections', () => {
    const xml = '<project><dependencies>' + dep('a') + '</dependencies><dependencies>' + dep('b') + '</dependencies></project>';
    expect(names(xml)).toEqual(['a', 'b']);
  });

  it('reads <optional> as a boolean', () => {
    const [a, b, c] = parse(pom(dep('a', '<optional>true</optional>') + dep('b', '<optional>false</optional>') + dep('c', '<optional> TRUE </optional>'))).dependencies;
    expect([a.optional, b.optional, c.optional]).toEqual([true, false, true]);
  });

  it('keeps the first of repeated artifactIds, with a warning naming the line', () => {
    const { dependencies, warnings } = parse(pom(dep('gson', '<version>2.8.9</version>') + dep('gson', '<version>2.10.1</version>')));
    expect(dependencies).toEqual([dependency({ name: 'gson', groupId: 'g', version: '2.8.9' })]);
    expect(warnings).toEqual(['pom.xml:9: gson is declared again; the first declaration is kept']);
  });

  it('dedupes by artifactId across groups (D1 is artifactIds)', () => {
    expect(names(pom(dep('core') + '    <dependency><groupId>other</groupId><artifactId>core</artifactId></dependency>\n'))).toEqual(['core']);
  });
});

describe('parsePom: properties', () => {
  const withProps = (props: string, deps: string, head = '') =>
    `<project>${head}<version>3.1.0</version><properties>${props}</properties><dependencies>${deps}</dependencies></project>`;

  it('resolves project and parent coordinates', () => {
    const xml = `<project>
  <parent><groupId>org.parent</groupId><artifactId>parent</artifactId><version>7</version></parent>
  <artifactId>child</artifactId>
  <dependencies>
    <dependency><groupId>\${project.groupId}</groupId><artifactId>\${project.artifactId}-api</artifactId><version>\${project.version}</version></dependency>
    <dependency><groupId>\${project.parent.groupId}</groupId><artifactId>x</artifactId><version>\${parent.version}</version></dependency>
    <dependency><groupId>g</groupId><artifactId>y</artifactId><version>\${project.parent.version}</version></dependency>
    <dependency><groupId>g</groupId><artifactId>z</artifactId><version>\${version}</version></dependency>
  </dependencies>
</project>`;
    const { dependencies, warnings } = parse(xml);
    expect(dependencies.map((d) => [d.groupId, d.name, d.version])).toEqual([
      ['org.parent', 'child-api', '7'],
      ['org.parent', 'x', '7'],
      ['g', 'y', '7'],
      ['g', 'z', '7'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('prefers the project version over the parent one', () => {
    const xml = withProps('', dep('a', '<version>${project.version}</version>'), '<parent><groupId>p</groupId><artifactId>p</artifactId><version>9</version></parent>');
    expect(parse(xml).dependencies[0].version).toBe('3.1.0');
  });

  it('resolves artifactIds from properties', () => {
    const xml = withProps('<scala.binary>2.13</scala.binary>', dep('akka-actor_${scala.binary}', '<version>2.8.5</version>'));
    expect(names(xml)).toEqual(['akka-actor_2.13']);
  });

  it('keeps an unresolvable property as written, with a warning naming the line', () => {
    const xml = `<project>\n<dependencies>\n<dependency><groupId>g</groupId><artifactId>lib-\${env.FLAVOUR}</artifactId><version>\${missing.version}</version></dependency>\n</dependencies>\n</project>`;
    const { dependencies, warnings } = parse(xml);
    expect(dependencies[0]).toMatchObject({ name: 'lib-${env.FLAVOUR}', version: '${missing.version}' });
    expect(warnings).toEqual([
      'pom.xml:3: ${env.FLAVOUR} cannot be resolved; kept as written',
      'pom.xml:3: ${missing.version} cannot be resolved; kept as written',
    ]);
  });

  it('reports a property cycle instead of looping', () => {
    const xml = withProps('<a>${b}</a><b>${a}</b>', dep('x', '<version>${a}</version>'));
    const { dependencies, warnings } = parse(xml);
    expect(dependencies[0].version).toBe('${a}');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\$\{a\} cannot be resolved/);
  });

  it('does not let properties that double each other grow without bound', () => {
    const props = Array.from({ length: 40 }, (_, k) => `<p${k}>\${p${k + 1}}\${p${k + 1}}</p${k}>`).join('') + '<p40>lol</p40>';
    const { dependencies, warnings } = parse(withProps(props, dep('x', '<version>${p0}</version>')));
    expect(dependencies[0].version!.length).toBeLessThanOrEqual(10_000);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it('never resolves a property from the prototype (the parser renames such tags, so they stay unresolved)', () => {
    const { dependencies, warnings } = parse(withProps('<toString>1</toString>', dep('x', '<version>${toString}</version><scope>${valueOf}</scope>')));
    expect(dependencies[0]).toMatchObject({ version: '${toString}', scope: '${valueOf}' });
    expect(warnings).toHaveLength(2);
  });
});

describe('parsePom: rejected poms', () => {
  it('rejects a DOCTYPE, naming file and line', () => {
    const err = manifestError(() => parse('<?xml version="1.0"?>\n<!DOCTYPE project>\n<project/>'));
    expect(err.message).toBe('pom.xml:2: <!DOCTYPE: document type and entity declarations are not accepted');
    expect(err.line).toBe(2);
  });

  it('rejects the billion laughs without expanding anything', () => {
    const lol = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<project><dependencies><dependency><groupId>g</groupId><artifactId>&lol9;</artifactId></dependency></dependencies></project>`;
    expect(manifestError(() => parse(lol)).message).toMatch(/^pom\.xml:2: .*not accepted/);
  });

  it('rejects an external entity (XXE)', () => {
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<project><dependencies><dependency><artifactId>&xxe;</artifactId></dependency></dependencies></project>`;
    expect(manifestError(() => parse(xxe)).line).toBe(2);
  });

  it('rejects an entity declaration anywhere, in any case', () => {
    expect(manifestError(() => parse('<project>\n\n<!ENTITY x "y">\n</project>')).line).toBe(3);
    expect(manifestError(() => parse('<!doctype project>\n<project/>')).line).toBe(1);
  });

  it.each([
    ['<project>\n<dependencies>\n<dependency>\n</dependencies>\n</project>', 4],
    ['<project>\n  <dependencies>\n', 1],
    ['<project><a></b></project>', 1],
    ['not xml at all', 1],
    ['', 1],
  ])('rejects malformed XML %j at its line', (xml, line) => {
    const err = manifestError(() => parse(xml));
    expect(err.line).toBe(line);
    expect(err.message).toMatch(/^pom\.xml:\d+: malformed XML: /);
  });

  it('rejects a root other than <project>', () => {
    expect(manifestError(() => parse('<settings><dependencies/></settings>')).message).toBe('pom.xml:1: the root element is not <project>');
  });

  it('rejects a dependency without an artifactId, at its line', () => {
    const err = manifestError(() => parse('<project>\n<dependencies>\n  <dependency>\n    <groupId>g</groupId>\n  </dependency>\n</dependencies>\n</project>'));
    expect(err.message).toBe('pom.xml:3: <dependency> has no artifactId');
    expect(manifestError(() => parse(pom('    <dependency><artifactId> </artifactId></dependency>\n'))).reason).toBe('<dependency> has no artifactId');
  });

  it('rejects a repeated or structured artifactId', () => {
    expect(manifestError(() => parse(pom('    <dependency><artifactId>a</artifactId><artifactId>b</artifactId></dependency>\n'))).reason).toMatch(/<artifactId> is given more than once/);
    expect(manifestError(() => parse(pom('    <dependency><artifactId>a<x>b</x></artifactId></dependency>\n'))).reason).toMatch(/must hold text/);
  });

  it('turns a parser refusal (a dangerous tag name) into a ManifestError', () => {
    expect(manifestError(() => parse('<project><properties><__proto__>x</__proto__></properties></project>')).message).toMatch(/^pom\.xml: malformed XML: /);
  });
});
