import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeCoverage } from '../../../src/domain/coverage';
import { jacocoIncludes, JACOCO_IMAGE_SETUP, JACOCO_JARS, parseJacocoXml } from '../../../src/ecosystems/java/coverage';
import { RUNTIME_RECIPES } from '../../../src/infra/recipes';

// JaCoCo 0.8.15's XML report of `java Top` over target/classes: Top.java (one line, run), p/A.java (main
// run without its argument branch, A$Unused never loaded: 4 of 7 lines), p/Never.java (never loaded, 2 lines).
const REPORT = fs.readFileSync(path.join(__dirname, '../../fixtures/coverage/jacoco-report.xml'), 'utf8');

test('lines with code executed of all lines of the project’s source files, classes never loaded included', () => {
  const c = parseJacocoXml(REPORT);
  expect(c).toEqual({ tool: 'jacoco', unit: 'line', total: 10, executed: 5, share: 0.5, files: 3, files_executed: 2 });
  expect(describeCoverage(c!)).toBe("50% of the project's own code (5 of 10 lines, 2 of 3 files; JaCoCo)");
});

test('a line shared by a class and its inner class counts once: the source file’s counter, not the classes’ sum', () => {
  const xml = `<report name="r"><package name="p">
    <class name="p/A" sourcefilename="A.java"><counter type="LINE" missed="0" covered="1"/></class>
    <class name="p/A$1" sourcefilename="A.java"><counter type="LINE" missed="1" covered="0"/></class>
    <sourcefile name="A.java"><line nr="3" mi="2" ci="3" mb="0" cb="0"/><counter type="INSTRUCTION" missed="2" covered="3"/><counter type="LINE" missed="0" covered="1"/></sourcefile>
    <counter type="LINE" missed="1" covered="1"/></package><counter type="LINE" missed="1" covered="1"/></report>`;
  expect(parseJacocoXml(xml)).toMatchObject({ total: 1, executed: 1, files: 1, files_executed: 1 });
});

test('no measure from what is no report, or counts no line', () => {
  expect(parseJacocoXml('')).toBeNull();
  expect(parseJacocoXml('GROUP,PACKAGE,CLASS,INSTRUCTION_MISSED')).toBeNull();
  expect(parseJacocoXml('<report name="r"></report>')).toBeNull();
  // Classes compiled without line numbers: instructions only.
  expect(parseJacocoXml('<report name="r"><package name="p"><sourcefile name="A.java"><counter type="INSTRUCTION" missed="2" covered="3"/></sourcefile></package></report>')).toBeNull();
});

test('the agent instruments the project’s packages and its default-package classes, nothing else', () => {
  expect(jacocoIncludes(['./p/A.class', './p/A$Unused.class', './p/q/Deep.class', './Top.class', './Top$1.class', './module-info.class', ''])).toBe('Top:Top$1:p.*:p.q.*');
  expect(jacocoIncludes(['./META-INF/MANIFEST.MF'])).toBeNull();
  expect(jacocoIncludes([])).toBeNull();
});

test('the Java image bakes both jars in from the repository, checked against their pinned sums, outside any repository layout', () => {
  const java = RUNTIME_RECIPES.java('base');
  expect(java).toContain(JACOCO_IMAGE_SETUP);
  for (const jar of JACOCO_JARS) {
    expect(java).toContain(`${jar.path} ${jar.file}`);
    expect(java).toContain(`${jar.sha256}  ${jar.file}`);
    expect(jar.file.startsWith('/opt/envgap-harness/')).toBe(true);
  }
  expect(RUNTIME_RECIPES.python('base')).not.toContain('jacoco');
});
