import { asArray, child, isElement, parsePomXml, type XmlElement } from './manifestXml';
import { interpolate, pomProperties } from './manifestProperties';
import { javaSourceCode } from './entrySource';

// Plugins whose `<mainClass>` names the class `java -jar` or `mvn exec:java` would start, most telling first.
const MAIN_CLASS_PLUGINS = ['maven-jar-plugin', 'exec-maven-plugin', 'maven-shade-plugin', 'maven-assembly-plugin', 'spring-boot-maven-plugin'];
const MAIN_CLASS_PROPERTIES = ['exec.mainClass', 'start-class'];
const PREFERRED_CLASS_NAMES = ['Main', 'App', 'Application'];
const DEFAULT_SOURCE_DIRECTORY = 'src/main/java';
const JAVA_CLASS_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/**
 * The fully qualified class to run with `java -cp ... <class>`. From pom.xml, in order: a
 * `<mainClass>` in the configuration of maven-jar-plugin, exec-maven-plugin, maven-shade-plugin's
 * ManifestResourceTransformer, maven-assembly-plugin or spring-boot-maven-plugin; the `exec.mainClass`
 * or `start-class` property; a `<mainClass>` of any other plugin (`${...}` references expanded from
 * the POM's properties). Otherwise the classes under the source directory (`src/main/java`, or the
 * POM's `<sourceDirectory>`) with a `public static void main(String[])`: the only one, else the only
 * one named Main, App or Application, in that order. Null when none or ambiguous.
 */
export function chooseJavaMainClass(files: Record<string, string>): JavaEntryChoice {
  const project = parseProject(files['pom.xml']);
  const declared = project ? mainClassFromPom(project) : null;
  if (declared) return declared;
  return mainClassFromSources(files, project ? sourceDirectory(project) : DEFAULT_SOURCE_DIRECTORY);
}

/** chooseJavaMainClass's class alone. */
export function findJavaMainClass(files: Record<string, string>): string | null {
  return chooseJavaMainClass(files).entry;
}

/** The main class chosen (null: none) and, in one line, why. */
export interface JavaEntryChoice {
  entry: string | null;
  reason: string;
}

function parseProject(pom: string | undefined): XmlElement | null {
  if (pom === undefined) return null;
  try {
    return parsePomXml(pom.replace(/^\uFEFF/, ''), 'pom.xml');
  } catch {
    // A POM Maven cannot read fails the build anyway; the sources may still name a main class.
    return null;
  }
}

function mainClassFromPom(project: XmlElement): JavaEntryChoice | null {
  const properties = pomProperties(project);
  const resolve = (value: string | null) => {
    if (value === null) return null;
    let unresolved = false;
    const expanded = interpolate(value, properties, () => (unresolved = true)).trim();
    return !unresolved && JAVA_CLASS_NAME.test(expanded) ? expanded : null;
  };

  const plugins = pluginsOf(project);
  for (const artifactId of MAIN_CLASS_PLUGINS) {
    for (const plugin of plugins.filter((p) => textOf(child(p, 'artifactId')) === artifactId)) {
      for (const value of findAll(plugin, 'mainClass')) {
        const mainClass = resolve(value);
        if (mainClass) return { entry: mainClass, reason: `pom.xml ${artifactId} mainClass ${mainClass}` };
      }
    }
  }
  for (const name of MAIN_CLASS_PROPERTIES) {
    const mainClass = resolve(properties.get(name) ?? null);
    if (mainClass) return { entry: mainClass, reason: `pom.xml property ${name} ${mainClass}` };
  }
  for (const plugin of plugins) {
    for (const value of findAll(plugin, 'mainClass')) {
      const mainClass = resolve(value);
      if (mainClass) return { entry: mainClass, reason: `pom.xml ${textOf(child(plugin, 'artifactId')) ?? 'plugin'} mainClass ${mainClass}` };
    }
  }
  return null;
}

/** Plugins of `<build><plugins>`, then of `<build><pluginManagement><plugins>`. */
function pluginsOf(project: XmlElement): XmlElement[] {
  const build = child(project, 'build');
  if (!isElement(build)) return [];
  const management = child(build, 'pluginManagement');
  const lists = [child(build, 'plugins'), isElement(management) ? child(management, 'plugins') : undefined];
  return lists
    .flatMap((list) => asArray(list))
    .flatMap((list) => (isElement(list) ? asArray(child(list, 'plugin')) : []))
    .filter(isElement);
}

/** The texts of every element called name below element, in document order. */
function findAll(element: unknown, name: string): string[] {
  const found: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    if (!isElement(value)) return;
    for (const key of Object.keys(value)) {
      if (key === name) {
        for (const item of asArray(value[key])) {
          const text = textOf(item);
          if (text !== null) found.push(text);
        }
      } else {
        visit(value[key]);
      }
    }
  };
  visit(element);
  return found;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function sourceDirectory(project: XmlElement): string {
  const build = child(project, 'build');
  const configured = isElement(build) ? textOf(child(build, 'sourceDirectory')) : null;
  if (configured === null) return DEFAULT_SOURCE_DIRECTORY;
  const relative = configured.replace(/^\$\{(?:project\.)?basedir\}\/?/, '').replace(/^\.\//, '').replace(/\/+$/, '');
  return relative === '' || relative.startsWith('/') || relative.includes('${') ? DEFAULT_SOURCE_DIRECTORY : relative;
}

const MAIN_METHOD =
  /\b(?:public\s+(?:final\s+)?static|static\s+(?:final\s+)?public)\s+(?:final\s+)?void\s+main\s*\(\s*(?:final\s+)?(?:java\.lang\.)?String\s*(?:\[\s*\]\s*\w+|\.\.\.\s*\w+|\s\w+\s*\[\s*\])\s*\)/;
const PACKAGE = /^\s*package\s+([\w.]+)\s*;/m;

function mainClassFromSources(files: Record<string, string>, directory: string): JavaEntryChoice {
  const prefix = `${directory}/`;
  const candidates: string[] = [];
  for (const path of Object.keys(files).sort()) {
    if (!path.startsWith(prefix) || !path.endsWith('.java')) continue;
    const code = javaSourceCode(files[path]);
    if (!MAIN_METHOD.test(code)) continue;
    const className = path.slice(path.lastIndexOf('/') + 1, -'.java'.length);
    const pkg = PACKAGE.exec(code)?.[1];
    candidates.push(pkg ? `${pkg}.${className}` : className);
  }
  const pomless = 'no mainClass in pom.xml';
  if (candidates.length === 1) return { entry: candidates[0], reason: `${pomless}; the only class with public static void main under ${directory}: ${candidates[0]}` };
  for (const name of PREFERRED_CLASS_NAMES) {
    const named = candidates.filter((c) => c === name || c.endsWith(`.${name}`));
    if (named.length === 1) return { entry: named[0], reason: `${pomless}; the only class named ${name} of ${candidates.length} with main under ${directory}: ${named[0]}` };
    if (named.length > 1) return { entry: null, reason: `no main class: ${pomless}, ${named.length} classes named ${name} with main under ${directory} (${named.join(', ')})` };
  }
  const found = candidates.length === 0 ? 'no class' : `${candidates.length} classes (${candidates.join(', ')}), none named Main, App or Application,`;
  return { entry: null, reason: `no main class: ${pomless}, ${found} with public static void main under ${directory}` };
}
