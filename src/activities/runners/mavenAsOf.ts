/**
 * A date-filtered view of the Maven repository (docs/resolution.md, "Java"): a single-file Java program
 * (`java MavenAsOf.java serve <cutoff> <port> <settings.xml>`) that the Java runner starts inside the
 * sandbox, on the container's own loopback, before `mvn`, and that Maven uses as its mirror of every
 * repository. It relays to the repository Maven would use otherwise (the mirror that ~/.m2/settings.xml
 * names, else Maven Central) and:
 *  - rewrites each artifact's `maven-metadata.xml` to the versions published before the cutoff
 *    (`<latest>`, `<release>` and `<lastUpdated>` updated; its checksums computed on the rewritten text;
 *    404 where no version was published yet), so version ranges, LATEST/RELEASE and plugins without a
 *    version resolve as on that day;
 *  - refuses (404) any file of a version published on or after the cutoff.
 * A version's publication time is the `Last-Modified` of its .pom (a HEAD), else, where the repository
 * does not send it, the creation time of the .pom's OpenPGP signature (`.pom.asc`, which Central requires);
 * a version with neither is kept (artifacts from before signing; not the metadata's `lastUpdated`, which
 * Central rewrites long after the last deploy). Looked up once per version, in parallel, and cached for the build.
 * The JVM has no Node: hence Java (jdk.httpserver, java.net.http, the JDK's DOM), as ClasslessJars.java.
 * `java MavenAsOf.java filter <cutoff> <dates file>` runs the pure rewrite alone on metadata from standard
 * input (dates: `version instant` a line), for the tests; exit 3 where no version is left.
 */
export const MAVEN_AS_OF_FILE = 'MavenAsOf.java';

/** The loopback port the view listens on inside the container (its own network namespace: nothing else uses it during the build). */
export const MAVEN_AS_OF_PORT = 38573;

/** The mirror's id: Maven caches each repository's metadata under its id, so each date keeps its own. */
export const mavenAsOfMirrorId = (date: string): string => `envgap-as-of-${date}`;

/** The settings file that sends every repository to the view. */
export function mavenAsOfSettings(date: string): string {
  return `<settings>
  <mirrors>
    <mirror><id>${mavenAsOfMirrorId(date)}</id><mirrorOf>*</mirrorOf><url>http://127.0.0.1:${MAVEN_AS_OF_PORT}</url></mirror>
  </mirrors>
</settings>
`;
}

export const MAVEN_AS_OF_SOURCE = String.raw`import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.*;
import java.net.*;
import java.net.http.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.MessageDigest;
import java.time.*;
import java.time.format.DateTimeFormatter;
import java.util.*;
import java.util.concurrent.*;
import java.util.regex.*;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.*;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.*;
import org.xml.sax.InputSource;

public class MavenAsOf {
    static final String CENTRAL = "https://repo.maven.apache.org/maven2";
    static final Pattern METADATA = Pattern.compile("^(.*)/maven-metadata\\.xml(?:\\.(md5|sha1|sha256|sha512))?$");
    static final DateTimeFormatter LAST_UPDATED = DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);
    static final Map<String, CompletableFuture<Optional<Instant>>> published = new ConcurrentHashMap<>();
    static final ExecutorService lookups = Executors.newFixedThreadPool(16);
    static HttpClient client;
    static String upstream;
    static Instant cutoff;

    public static void main(String[] args) throws Exception {
        cutoff = Instant.parse(args[1]);
        if (args[0].equals("filter")) {
            Map<String, Instant> dates = new HashMap<>();
            for (String line : Files.readAllLines(Path.of(args[2]))) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 2) dates.put(f[0], Instant.parse(f[1]));
            }
            String out = filterMetadata(new String(System.in.readAllBytes(), StandardCharsets.UTF_8), dates, cutoff);
            if (out == null) System.exit(3);
            System.out.print(out);
            return;
        }
        int port = Integer.parseInt(args[2]);
        upstream = upstreamOf(Path.of(args[3])).replaceAll("/+$", "");
        client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(30)).build();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.createContext("/", MavenAsOf::handle);
        server.start();
        System.err.println("serving " + upstream + " as of " + cutoff + " on 127.0.0.1:" + port);
        System.out.println("ready");
        System.out.close();
    }

    /** The mirror the user's settings name, else Maven Central. */
    static String upstreamOf(Path settings) throws IOException {
        if (!Files.isRegularFile(settings)) return CENTRAL;
        Matcher m = Pattern.compile("<url>\\s*(.*?)\\s*</url>", Pattern.DOTALL).matcher(Files.readString(settings));
        if (!m.find()) return CENTRAL;
        return m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&");
    }

    static void handle(HttpExchange ex) {
        String path = ex.getRequestURI().getRawPath();
        try {
            boolean head = ex.getRequestMethod().equals("HEAD");
            Matcher m = METADATA.matcher(path);
            if (m.matches()) {
                metadata(ex, m.group(1), m.group(2), head);
                return;
            }
            Instant date = versionDate(path);
            if (date != null && !date.isBefore(cutoff)) {
                System.err.println("refused " + path + " (published " + date + ")");
                send(ex, 404, ("published " + date + ", after " + cutoff + "\n").getBytes(StandardCharsets.UTF_8), head);
                return;
            }
            relay(ex, path, head);
        } catch (Exception e) {
            System.err.println("failed " + path + ": " + e);
            try {
                send(ex, 502, ("envgap maven date view: " + e + "\n").getBytes(StandardCharsets.UTF_8), false);
            } catch (IOException ignored) {
                // the client went away
            }
        } finally {
            ex.close();
        }
    }

    /** The publication time of the version a file belongs to (repository layout: group/artifact/version/artifact-version...), or null. */
    static Instant versionDate(String path) throws Exception {
        String[] s = path.split("/");
        if (s.length < 5) return null;
        String file = s[s.length - 1], version = s[s.length - 2], artifact = s[s.length - 3];
        if (version.endsWith("-SNAPSHOT") || !file.startsWith(artifact + "-" + version)) return null;
        String dir = String.join("/", Arrays.copyOf(s, s.length - 2));
        return published(dir, artifact, version).orElse(null);
    }

    static Optional<Instant> published(String dir, String artifact, String version) throws Exception {
        String key = dir + "/" + version;
        CompletableFuture<Optional<Instant>> f = published.computeIfAbsent(key, k -> CompletableFuture.supplyAsync(() -> lookup(dir, artifact, version), lookups));
        try {
            return f.get();
        } catch (ExecutionException e) {
            published.remove(key, f);
            throw new IOException("dating " + key + ": " + e.getCause(), e.getCause());
        }
    }

    static Optional<Instant> lookup(String dir, String artifact, String version) {
        String pom = dir + "/" + version + "/" + artifact + "-" + version + ".pom";
        try {
            HttpResponse<Void> h = client.send(request(pom).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            Optional<String> modified = h.statusCode() == 200 ? h.headers().firstValue("last-modified") : Optional.empty();
            if (modified.isPresent()) return Optional.of(ZonedDateTime.parse(modified.get(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            HttpResponse<String> asc = client.send(request(pom + ".asc").GET().build(), HttpResponse.BodyHandlers.ofString());
            if (asc.statusCode() != 200) return Optional.empty();
            return Optional.ofNullable(signatureTime(asc.body()));
        } catch (IOException | InterruptedException e) {
            throw new CompletionException(e);
        }
    }

    /** The creation time of an ASCII-armoured OpenPGP signature (RFC 4880: v3 field, v4 hashed subpacket 2), or null. */
    static Instant signatureTime(String armored) {
        StringBuilder b64 = new StringBuilder();
        boolean inside = false, body = false;
        for (String line : armored.split("\r?\n")) {
            if (line.startsWith("-----BEGIN")) { inside = true; continue; }
            if (line.startsWith("-----END")) break;
            if (!inside) continue;
            if (!body) {
                if (line.trim().isEmpty()) { body = true; continue; }
                if (line.contains(": ")) continue;
                body = true;
            }
            if (line.startsWith("=")) continue;
            b64.append(line.trim());
        }
        try {
            byte[] p = Base64.getDecoder().decode(b64.toString());
            int i = 0, tag = p[i++] & 0xff;
            if ((tag & 0x80) == 0) return null;
            if ((tag & 0x40) != 0) {
                if ((tag & 0x3f) != 2) return null;
                int l = p[i++] & 0xff;
                if (l >= 192 && l < 224) i++;
                else if (l == 255) i += 4;
            } else {
                if (((tag >> 2) & 0x0f) != 2) return null;
                int lt = tag & 3;
                i += lt == 0 ? 1 : lt == 1 ? 2 : lt == 2 ? 4 : 0;
            }
            int version = p[i] & 0xff;
            if (version == 3) return Instant.ofEpochSecond(u32(p, i + 3));
            if (version != 4 && version != 5) return null;
            int j = i + 6, end = j + (((p[i + 4] & 0xff) << 8) | (p[i + 5] & 0xff));
            while (j < end) {
                int len = p[j++] & 0xff;
                if (len >= 192 && len < 255) len = ((len - 192) << 8) + (p[j++] & 0xff) + 192;
                else if (len == 255) { len = (int) u32(p, j); j += 4; }
                if ((p[j] & 0x7f) == 2) return Instant.ofEpochSecond(u32(p, j + 1));
                j += len;
            }
        } catch (RuntimeException e) {
            return null;
        }
        return null;
    }

    static long u32(byte[] p, int i) {
        return ((long) (p[i] & 0xff) << 24) | ((p[i + 1] & 0xff) << 16) | ((p[i + 2] & 0xff) << 8) | (p[i + 3] & 0xff);
    }

    static void metadata(HttpExchange ex, String dir, String checksum, boolean head) throws Exception {
        HttpResponse<byte[]> r = client.send(request(dir + "/maven-metadata.xml").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            send(ex, r.statusCode(), new byte[0], head);
            return;
        }
        String xml = new String(r.body(), StandardCharsets.UTF_8);
        String artifact = dir.substring(dir.lastIndexOf('/') + 1);
        Map<String, Instant> dates = new HashMap<>();
        for (String version : versionsOf(xml)) {
            if (version.endsWith("-SNAPSHOT")) continue;
            published(dir, artifact, version).ifPresent(d -> dates.put(version, d));
        }
        String filtered = filterMetadata(xml, dates, cutoff);
        if (filtered == null) {
            System.err.println("refused " + dir + "/maven-metadata.xml (no version before " + cutoff + ")");
            send(ex, 404, new byte[0], head);
            return;
        }
        byte[] body = filtered.getBytes(StandardCharsets.UTF_8);
        if (checksum != null) body = hex(MessageDigest.getInstance(checksum.equals("md5") ? "MD5" : checksum.equals("sha1") ? "SHA-1" : checksum.equals("sha256") ? "SHA-256" : "SHA-512").digest(body)).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", checksum == null ? "text/xml" : "text/plain");
        send(ex, 200, body, head);
    }

    static List<String> versionsOf(String xml) {
        List<String> out = new ArrayList<>();
        int start = xml.indexOf("<versions>"), end = xml.indexOf("</versions>");
        if (start < 0 || end < start) return out;
        Matcher m = Pattern.compile("<version>\\s*([^<]*?)\\s*</version>").matcher(xml.substring(start, end));
        while (m.find()) out.add(m.group(1));
        return out;
    }

    /**
     * Pure: the metadata with the versions dated on or after the cutoff removed; the newest kept version
     * (by date, else the last listed) as latest, the newest kept release as release, lastUpdated the newest
     * kept date. Undated versions are kept. Metadata without a version list (a group's plugins, a
     * snapshot's) comes back as it was; null where no version is left.
     */
    static String filterMetadata(String xml, Map<String, Instant> dates, Instant cutoff) throws Exception {
        if (!xml.contains("<versions>")) return xml;
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
        Element versioning = child(doc.getDocumentElement(), "versioning");
        Element versions = versioning == null ? null : child(versioning, "versions");
        if (versions == null) return xml;
        List<String> kept = new ArrayList<>();
        for (Element v : children(versions, "version")) {
            String name = v.getTextContent().trim();
            Instant d = dates.get(name);
            if (d != null && !d.isBefore(cutoff)) {
                Node before = v.getPreviousSibling();
                if (before != null && before.getNodeType() == Node.TEXT_NODE && before.getTextContent().isBlank()) versions.removeChild(before);
                versions.removeChild(v);
            } else {
                kept.add(name);
            }
        }
        if (kept.isEmpty()) return null;
        String latest = newest(kept, dates, false), release = newest(kept, dates, true);
        setText(versioning, "latest", latest);
        if (release != null) setText(versioning, "release", release);
        else if (child(versioning, "release") != null) versioning.removeChild(child(versioning, "release"));
        Instant updated = kept.stream().map(dates::get).filter(Objects::nonNull).max(Comparator.naturalOrder()).orElse(null);
        if (updated != null) setText(versioning, "lastUpdated", LAST_UPDATED.format(updated));
        Transformer t = TransformerFactory.newInstance().newTransformer();
        t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
        StringWriter out = new StringWriter();
        t.transform(new DOMSource(doc), new StreamResult(out));
        return out.toString();
    }

    static String newest(List<String> kept, Map<String, Instant> dates, boolean releasesOnly) {
        String best = null;
        Instant bestDate = null;
        for (String v : kept) {
            if (releasesOnly && v.endsWith("-SNAPSHOT")) continue;
            Instant d = dates.get(v);
            if (bestDate == null || (d != null && !d.isBefore(bestDate))) {
                best = v;
                if (d != null) bestDate = d;
            }
        }
        return best;
    }

    static Element child(Element parent, String name) {
        List<Element> c = children(parent, name);
        return c.isEmpty() ? null : c.get(0);
    }

    static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ((Element) n).getTagName().equals(name)) out.add((Element) n);
        }
        return out;
    }

    static void setText(Element parent, String name, String text) {
        Element e = child(parent, name);
        if (e != null) e.setTextContent(text);
    }

    static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(upstream + path)).timeout(Duration.ofMinutes(5)).header("User-Agent", "envgap-maven-as-of");
    }

    static void relay(HttpExchange ex, String path, boolean head) throws Exception {
        HttpRequest.Builder b = request(path);
        HttpResponse<InputStream> r = client.send((head ? b.method("HEAD", HttpRequest.BodyPublishers.noBody()) : b.GET()).build(), HttpResponse.BodyHandlers.ofInputStream());
        r.headers().firstValue("content-type").ifPresent(v -> ex.getResponseHeaders().set("Content-Type", v));
        r.headers().firstValue("last-modified").ifPresent(v -> ex.getResponseHeaders().set("Last-Modified", v));
        try (InputStream in = r.body()) {
            if (head) {
                ex.sendResponseHeaders(r.statusCode(), -1);
                return;
            }
            long length = r.headers().firstValueAsLong("content-length").orElse(-2);
            ex.sendResponseHeaders(r.statusCode(), length == -2 ? 0 : length == 0 ? -1 : length);
            try (OutputStream out = ex.getResponseBody()) {
                in.transferTo(out);
            }
        }
    }

    static void send(HttpExchange ex, int status, byte[] body, boolean head) throws IOException {
        ex.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x));
        return s.toString();
    }
}
`;
