/**
 * A single-file Java program (`java ClasslessJars.java <dependency folder> <local repository>`) that
 * prints, a JSON object a line, every dependency file under the folder with no `.class` entry (a
 * starter's jar, a `pom`-type dependency) with the text of its POM from the local repository:
 * `{"file": ..., "artifactId": ..., "pom": ... | null}`. The Java ecosystem's `tracedAggregated`
 * layer reads it (src/ecosystems/java/aggregators.ts). One JVM for all jars: about a second.
 */
export const CLASSLESS_JARS_FILE = 'ClasslessJars.java';

export const CLASSLESS_JARS_SOURCE = String.raw`import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import java.util.zip.ZipFile;

public class ClasslessJars {
    public static void main(String[] args) throws Exception {
        Path dependencies = Path.of(args[0]);
        Path repository = Path.of(args[1]);
        if (!Files.isDirectory(dependencies)) return;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dependencies)) {
            files = walk.filter(p -> p.toString().endsWith(".jar") || p.toString().endsWith(".pom")).sorted().collect(Collectors.toList());
        }
        for (Path file : files) {
            boolean pomType = file.toString().endsWith(".pom");
            if (!pomType && hasClasses(file)) continue;
            // Repository layout: <group path>/<artifactId>/<version>/<file>.
            Path version = file.getParent();
            String artifactId = version.getParent().getFileName().toString();
            Path pom = repository.resolve(dependencies.relativize(version)).resolve(artifactId + "-" + version.getFileName() + ".pom");
            String text = pomType ? Files.readString(file) : Files.isRegularFile(pom) ? Files.readString(pom) : null;
            System.out.println("{\"file\":" + json(file.toString()) + ",\"artifactId\":" + json(artifactId) + ",\"pom\":" + (text == null ? "null" : json(text)) + "}");
        }
    }

    static boolean hasClasses(Path jar) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().anyMatch(e -> e.getName().endsWith(".class"));
        } catch (Exception e) {
            return true;
        }
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
`;
