// `[0.042s][info][class,load] com.google.gson.Gson source: file:/work/target/dependency/.../gson-2.10.1.jar`
const CLASS_FROM_FILE = /\[class,load\]\s+\S+\s+source:\s+(?:jar:)?file:(\/[^\s!]+)/;

/**
 * The jar files classes were loaded from, in first-seen order, from the log of
 * `java -Xlog:class+load=info:file=<log> ...`. A sharper D3 than opened files: while looking for a
 * class, the JVM opens every classpath jar before the one that has it, so a trace of opens also
 * counts jars that were only searched. Feed the result to mapJavaTrace. Classes of the JDK
 * (`jrt:/`, `shared objects file`) and of folders (target/classes) are left out.
 */
export function parseClassLoadLog(log: string): string[] {
  const jars = new Set<string>();
  for (const line of log.split(/\r?\n/)) {
    const path = CLASS_FROM_FILE.exec(line)?.[1];
    if (path === undefined || !path.endsWith('.jar')) continue;
    jars.add(decodeFileUrlPath(path));
  }
  return [...jars];
}

function decodeFileUrlPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
