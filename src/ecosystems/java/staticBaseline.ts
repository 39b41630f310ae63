import type { StaticBaseline } from '../ecosystem';
import { longestMatchingPrefix } from '../prefixTable';

export interface MavenCoordinate {
  groupId: string;
  artifactId: string;
  version: string;
}

/** A table whose coordinates are written as Maven writes them, `groupId:artifactId:version`. */
function coordinateTable(table: Readonly<Record<string, string>>): Readonly<Record<string, MavenCoordinate>> {
  return Object.fromEntries(
    Object.entries(table).map(([prefix, gav]) => {
      const [groupId, artifactId, version] = gav.split(':');
      return [prefix, { groupId: groupId!, artifactId: artifactId!, version: version! }];
    }),
  );
}

/** Import package prefixes of common libraries -> Maven coordinates (versions Maven Central serves). Longest prefix wins. */
export const JAVA_COORDINATES = coordinateTable({
  'com.google.gson': 'com.google.code.gson:gson:2.10.1',
  'com.fasterxml.jackson.databind': 'com.fasterxml.jackson.core:jackson-databind:2.17.2',
  'com.fasterxml.jackson.core': 'com.fasterxml.jackson.core:jackson-core:2.17.2',
  'com.fasterxml.jackson.annotation': 'com.fasterxml.jackson.core:jackson-annotations:2.17.2',
  'com.fasterxml.jackson.dataformat.yaml': 'com.fasterxml.jackson.dataformat:jackson-dataformat-yaml:2.17.2',
  'com.google.common': 'com.google.guava:guava:33.2.1-jre',
  'org.apache.commons.lang3': 'org.apache.commons:commons-lang3:3.14.0',
  'org.apache.commons.csv': 'org.apache.commons:commons-csv:1.11.0',
  'org.apache.commons.io': 'commons-io:commons-io:2.16.1',
  'org.apache.commons.codec': 'commons-codec:commons-codec:1.17.0',
  'org.apache.commons.cli': 'commons-cli:commons-cli:1.8.0',
  'org.apache.commons.text': 'org.apache.commons:commons-text:1.12.0',
  'org.junit.jupiter': 'org.junit.jupiter:junit-jupiter:5.10.2',
  'org.junit': 'junit:junit:4.13.2',
  'org.slf4j': 'org.slf4j:slf4j-api:2.0.13',
  'org.yaml.snakeyaml': 'org.yaml:snakeyaml:2.2',
  'org.json': 'org.json:json:20240303',
  'org.jsoup': 'org.jsoup:jsoup:1.17.2',
  'picocli': 'info.picocli:picocli:4.7.6',
  'okhttp3': 'com.squareup.okhttp3:okhttp:4.12.0',
  'org.xerial.sqlite': 'org.xerial:sqlite-jdbc:3.46.0.0',
  'org.sqlite': 'org.xerial:sqlite-jdbc:3.46.0.0',
  'com.opencsv': 'com.opencsv:opencsv:5.9',
  'org.bouncycastle': 'org.bouncycastle:bcprov-jdk18on:1.78.1',
});

const JDK_PREFIXES = ['java.', 'javax.', 'jdk.', 'sun.', 'com.sun.', 'org.w3c.', 'org.xml.', 'org.ietf.'];

/** The coordinate for a fully qualified name or package (longest table prefix), or null. */
export function javaCoordinate(name: string): MavenCoordinate | null {
  if (JDK_PREFIXES.some((p) => name.startsWith(p))) return null;
  return longestMatchingPrefix(JAVA_COORDINATES, (prefix) => name === prefix || name.startsWith(`${prefix}.`));
}

/** The imported names of a Java source (`import a.b.C;`, `import static a.b.C.m;`, `import a.b.*;`). */
export function javaImports(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;/gm)) found.add(m[1]!.replace(/\.\*$/, ''));
  return [...found].sort();
}

function mainClass(files: Record<string, string>): string | null {
  for (const p of Object.keys(files).sort()) {
    const content = files[p]!;
    if (!p.endsWith('.java') || !/\bstatic\s+void\s+main\s*\(/.test(content)) continue;
    const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(content)?.[1];
    const cls = p.split('/').pop()!.replace(/\.java$/, '');
    return pkg ? `${pkg}.${cls}` : cls;
  }
  return null;
}

const key = (c: MavenCoordinate) => `${c.groupId}:${c.artifactId}`;

/** pom.xml text for the coordinates (sorted) with the project's main class in maven-jar-plugin. */
export function javaPom(coordinates: readonly MavenCoordinate[], main: string | null): string {
  const unique = [...new Map(coordinates.map((c) => [key(c), c])).values()].sort((a, b) => key(a).localeCompare(key(b)));
  const deps = unique
    .map((c) => `    <dependency>\n      <groupId>${c.groupId}</groupId>\n      <artifactId>${c.artifactId}</artifactId>\n      <version>${c.version}</version>\n    </dependency>\n`)
    .join('');
  const jar = main
    ? `      <plugin>\n        <groupId>org.apache.maven.plugins</groupId>\n        <artifactId>maven-jar-plugin</artifactId>\n        <version>3.3.0</version>\n        <configuration>\n          <archive>\n            <manifest>\n              <mainClass>${main}</mainClass>\n            </manifest>\n          </archive>\n        </configuration>\n      </plugin>\n`
    : '';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">\n` +
    `  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.example</groupId>\n  <artifactId>static-baseline</artifactId>\n  <version>1.0.0</version>\n  <packaging>jar</packaging>\n` +
    `  <properties>\n    <maven.compiler.release>17</maven.compiler.release>\n    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>\n  </properties>\n` +
    `  <dependencies>\n${deps}  </dependencies>\n  <build>\n    <plugins>\n${jar}    </plugins>\n  </build>\n</project>\n`
  );
}

export function javaCoordinatesOf(files: Record<string, string>): MavenCoordinate[] {
  const out: MavenCoordinate[] = [];
  for (const [p, content] of Object.entries(files)) {
    if (!p.endsWith('.java')) continue;
    for (const name of javaImports(content)) {
      const c = javaCoordinate(name);
      if (c) out.push(c);
    }
  }
  return out;
}

export function inferJavaManifest(files: Record<string, string>): Record<string, string> {
  return { 'pom.xml': javaPom(javaCoordinatesOf(files), mainClass(files)) };
}

/** The coordinate for the package or class a javac error names (`package x.y does not exist`, `cannot find symbol ... class X` with its import). */
export function javaMissingFromError(tail: string): MavenCoordinate | null {
  for (const m of tail.matchAll(/package ([\w.]+) does not exist/g)) {
    const c = javaCoordinate(m[1]!);
    if (c) return c;
  }
  for (const m of tail.matchAll(/(?:location|symbol):\s+(?:class|package|variable)\s+([\w.]+)/g)) {
    const c = javaCoordinate(m[1]!);
    if (c) return c;
  }
  for (const m of tail.matchAll(/(?:ClassNotFoundException|NoClassDefFoundError):?\s+([\w./$]+)/g)) {
    const c = javaCoordinate(m[1]!.replace(/\//g, '.'));
    if (c) return c;
  }
  return null;
}

/** pom.xml with one more dependency (the ones it has kept, from its <dependency> blocks). */
export function javaPomWith(pom: string, files: Record<string, string>, extra: MavenCoordinate): string {
  const kept: MavenCoordinate[] = [];
  for (const m of pom.matchAll(/<dependency>\s*<groupId>([^<]+)<\/groupId>\s*<artifactId>([^<]+)<\/artifactId>\s*<version>([^<]+)<\/version>/g)) {
    kept.push({ groupId: m[1]!, artifactId: m[2]!, version: m[3]! });
  }
  return javaPom([...kept, extra], mainClass(files));
}

/** The static baseline for Java: pom.xml from the imports (with the main class), and the coordinate a javac or class-loading error names. */
export const JAVA_STATIC: StaticBaseline = {
  manifestFiles: ['pom.xml', 'apt.txt'],
  infer: (code) => inferJavaManifest(code),
  repair(previous, errorTail) {
    const coordinate = javaMissingFromError(errorTail);
    const pom = previous['pom.xml'] ?? '';
    if (!coordinate || pom.includes(`<artifactId>${coordinate.artifactId}</artifactId>`)) return null;
    return { ...previous, 'pom.xml': javaPomWith(pom, previous, coordinate) };
  },
};
