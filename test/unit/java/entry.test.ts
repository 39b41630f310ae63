import { chooseJavaMainClass, findJavaMainClass } from '../../../src/ecosystems/java/entry';

const pom = (build: string, properties = '') => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>word-count</artifactId>
  <version>1.0.0</version>
  <packaging>jar</packaging>
  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>${properties}
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.google.code.gson</groupId>
      <artifactId>gson</artifactId>
      <version>2.10.1</version>
    </dependency>
  </dependencies>
  <build>${build}</build>
</project>
`;

const JAR_PLUGIN = `
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.11.0</version>
        <configuration><release>17</release></configuration>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-jar-plugin</artifactId>
        <version>3.3.0</version>
        <configuration>
          <archive>
            <manifest>
              <addClasspath>true</addClasspath>
              <mainClass>com.example.wordcount.WordCount</mainClass>
            </manifest>
          </archive>
        </configuration>
      </plugin>
    </plugins>`;

const SHADE_PLUGIN = `
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-shade-plugin</artifactId>
        <version>3.5.1</version>
        <executions>
          <execution>
            <phase>package</phase>
            <goals><goal>shade</goal></goals>
            <configuration>
              <transformers>
                <transformer implementation="org.apache.maven.plugins.shade.resource.ServicesResourceTransformer"/>
                <transformer implementation="org.apache.maven.plugins.shade.resource.ManifestResourceTransformer">
                  <mainClass>\${main.class}</mainClass>
                </transformer>
              </transformers>
            </configuration>
          </execution>
        </executions>
      </plugin>
    </plugins>`;

const EXEC_PLUGIN = `
    <plugins>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.1.0</version>
        <configuration>
          <mainClass>com.example.cli.Runner</mainClass>
        </configuration>
      </plugin>
    </plugins>`;

describe('findJavaMainClass from pom.xml', () => {
  it('takes maven-jar-plugin\'s manifest mainClass', () => {
    expect(findJavaMainClass({ 'pom.xml': pom(JAR_PLUGIN) })).toBe('com.example.wordcount.WordCount');
  });

  it('takes exec-maven-plugin\'s mainClass', () => {
    expect(findJavaMainClass({ 'pom.xml': pom(EXEC_PLUGIN) })).toBe('com.example.cli.Runner');
  });

  it('takes the shade ManifestResourceTransformer mainClass, expanding a property', () => {
    expect(findJavaMainClass({ 'pom.xml': pom(SHADE_PLUGIN, '\n    <main.class>com.example.App</main.class>') })).toBe('com.example.App');
  });

  it('takes the exec.mainClass property when no plugin names a class', () => {
    expect(findJavaMainClass({ 'pom.xml': pom('', '\n    <exec.mainClass>com.example.Main</exec.mainClass>') })).toBe('com.example.Main');
  });

  it('prefers the jar plugin over the exec.mainClass property', () => {
    expect(findJavaMainClass({ 'pom.xml': pom(JAR_PLUGIN, '\n    <exec.mainClass>com.example.Other</exec.mainClass>') })).toBe('com.example.wordcount.WordCount');
  });

  it('skips a mainClass whose property is unknown, and one that is commented out', () => {
    const files = {
      'pom.xml': pom(SHADE_PLUGIN.replace('${main.class}', '${undefined.class}')),
      'src/main/java/com/example/App.java': 'package com.example;\npublic class App { public static void main(String[] args) {} }\n',
    };
    expect(findJavaMainClass(files)).toBe('com.example.App');
    const commented = pom(`<plugins><plugin><artifactId>maven-jar-plugin</artifactId><configuration><archive><manifest>
      <!-- <mainClass>com.example.Old</mainClass> -->
    </manifest></archive></configuration></plugin></plugins>`);
    expect(findJavaMainClass({ 'pom.xml': commented })).toBeNull();
  });

  it('falls back to the sources when the POM is not well-formed', () => {
    const files = {
      'pom.xml': '<project><build><plugins></build></project>',
      'src/main/java/Main.java': 'public class Main {\n  public static void main(String[] args) { System.out.println("hi"); }\n}\n',
    };
    expect(findJavaMainClass(files)).toBe('Main');
  });
});

const source = (pkg: string, cls: string, main = 'public static void main(String[] args)') =>
  `package ${pkg};\n\nimport java.util.List;\n\npublic class ${cls} {\n    ${main} {\n        System.out.println("${cls}");\n    }\n}\n`;

describe('findJavaMainClass from sources', () => {
  it('takes the only class with a main method, with its package', () => {
    const files = {
      'pom.xml': pom(''),
      'src/main/java/com/example/wordcount/WordCounter.java': 'package com.example.wordcount;\n\npublic class WordCounter { int count(String s) { return 0; } }\n',
      'src/main/java/com/example/wordcount/Cli.java': source('com.example.wordcount', 'Cli'),
      'src/test/java/com/example/wordcount/CliTest.java': source('com.example.wordcount', 'CliTest'),
    };
    expect(findJavaMainClass(files)).toBe('com.example.wordcount.Cli');
  });

  it('recognises varargs, final and C-style array parameters, and static before public', () => {
    for (const main of [
      'public static void main(String... args)',
      'public static void main(final String[] args)',
      'public static void main(String args[])',
      'static public void main(String[] argv)',
      'public static void main(java.lang.String[] args)',
    ]) {
      expect(findJavaMainClass({ 'src/main/java/app/Tool.java': source('app', 'Tool', main) })).toBe('app.Tool');
    }
  });

  it('does not take a main in a comment or a string, or one with other parameters', () => {
    const files = {
      'src/main/java/app/Doc.java': 'package app;\n/** Usage: public static void main(String[] args) */\npublic class Doc { String s = "public static void main(String[] a)"; }\n',
      'src/main/java/app/Old.java': 'package app;\npublic class Old {\n  // public static void main(String[] args) {}\n  public static void main(int x) {}\n}\n',
    };
    expect(findJavaMainClass(files)).toBeNull();
  });

  it('prefers Main, then App, then Application when several classes have a main', () => {
    const files = {
      'src/main/java/com/example/App.java': source('com.example', 'App'),
      'src/main/java/com/example/Main.java': source('com.example', 'Main'),
      'src/main/java/com/example/tools/Seeder.java': source('com.example.tools', 'Seeder'),
    };
    expect(findJavaMainClass(files)).toBe('com.example.Main');
    delete (files as Record<string, string>)['src/main/java/com/example/Main.java'];
    expect(findJavaMainClass(files)).toBe('com.example.App');
  });

  it('is null when several candidates remain', () => {
    expect(
      findJavaMainClass({
        'src/main/java/a/Server.java': source('a', 'Server'),
        'src/main/java/a/Client.java': source('a', 'Client'),
      }),
    ).toBeNull();
    expect(
      findJavaMainClass({
        'src/main/java/a/Main.java': source('a', 'Main'),
        'src/main/java/b/Main.java': source('b', 'Main'),
      }),
    ).toBeNull();
  });

  it('reads the POM\'s sourceDirectory', () => {
    const files = {
      'pom.xml': pom('\n    <sourceDirectory>${project.basedir}/src</sourceDirectory>'),
      'src/com/example/Main.java': source('com.example', 'Main'),
    };
    expect(findJavaMainClass(files)).toBe('com.example.Main');
  });

  it('is null for a project with no Java sources', () => {
    expect(findJavaMainClass({})).toBeNull();
    expect(findJavaMainClass({ 'pom.xml': pom(''), 'Main.java': source('x', 'Main') })).toBeNull();
  });
});

describe('chooseJavaMainClass reasons', () => {
  it('names the pom element or the source rule that chose the class', () => {
    expect(chooseJavaMainClass({ 'pom.xml': pom(JAR_PLUGIN) }).reason).toBe('pom.xml maven-jar-plugin mainClass com.example.wordcount.WordCount');
    expect(chooseJavaMainClass({ 'pom.xml': pom('', '\n    <exec.mainClass>com.example.Main</exec.mainClass>') }).reason).toBe('pom.xml property exec.mainClass com.example.Main');
    expect(chooseJavaMainClass({ 'pom.xml': pom(''), 'src/main/java/app/Tool.java': source('app', 'Tool') }).reason).toBe(
      'no mainClass in pom.xml; the only class with public static void main under src/main/java: app.Tool',
    );
    const two = { 'src/main/java/a/Main.java': source('a', 'Main'), 'src/main/java/a/Seed.java': source('a', 'Seed') };
    expect(chooseJavaMainClass(two).reason).toBe('no mainClass in pom.xml; the only class named Main of 2 with main under src/main/java: a.Main');
  });

  it('says why there is none', () => {
    expect(chooseJavaMainClass({})).toEqual({ entry: null, reason: 'no main class: no mainClass in pom.xml, no class with public static void main under src/main/java' });
    const two = { 'src/main/java/a/Tool.java': source('a', 'Tool'), 'src/main/java/a/Seed.java': source('a', 'Seed') };
    expect(chooseJavaMainClass(two).reason).toBe('no main class: no mainClass in pom.xml, 2 classes (a.Seed, a.Tool), none named Main, App or Application, with public static void main under src/main/java');
  });
});
