package com.example.csvstats;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * CSV Statistical Analyzer: detects numeric and categorical columns, computes descriptive
 * statistics, IQR outliers and value frequencies, prints an aligned report and writes report.json.
 */
public final class CsvAnalyzer {

    private static final Set<String> MISSING = Set.of("", "na", "n/a", "nan", "null", "none", "-", "?");
    /** Share of non-missing values that must parse as numbers for a column to count as numeric. */
    private static final double NUMERIC_THRESHOLD = 0.8;

    /** Statistics of one numeric column; serialised by Jackson databind (records are supported). */
    public record NumericStats(int count, int missing, int nonNumeric, Double mean, Double median, Double stdDev,
                               Double variance, Double min, Double max, Double p25, Double p50, Double p75,
                               Double iqrLow, Double iqrHigh, List<Outlier> outliers) { }

    public record Outlier(int row, double value) { }

    public record CategoricalStats(int count, int missing, int unique, String mostFrequent, Map<String, Integer> top10) { }

    /** A parsed CSV: header, data rows (each as long as the header) and the rows that were skipped. */
    record Table(List<String> header, List<String[]> rows, List<String> problems) { }

    // ------------------------------------------------------------------ CSV parsing

    /** Splits CSV text into records (RFC 4180: quoted fields may hold commas, quotes and newlines). */
    static List<List<String>> parseRecords(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false, fieldStarted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"' && field.length() == 0) {
                quoted = fieldStarted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
                fieldStarted = true;
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
                if (fieldStarted || field.length() > 0 || !record.isEmpty()) {
                    record.add(field.toString());
                    records.add(record);
                }
                record = new ArrayList<>();
                field.setLength(0);
                fieldStarted = false;
            } else {
                field.append(c);
                fieldStarted = true;
            }
        }
        if (fieldStarted || field.length() > 0 || !record.isEmpty()) {
            record.add(field.toString());
            records.add(record);
        }
        return records;
    }

    static Table parseTable(String text) {
        List<List<String>> records = parseRecords(text.startsWith("\uFEFF") ? text.substring(1) : text);
        List<String> problems = new ArrayList<>();
        if (records.isEmpty()) return new Table(List.of(), List.of(), problems);
        List<String> header = records.get(0).stream().map(String::trim).toList();
        List<String[]> rows = new ArrayList<>();
        for (int r = 1; r < records.size(); r++) {
            List<String> rec = records.get(r);
            if (rec.size() == 1 && rec.get(0).isBlank()) continue;
            if (rec.size() != header.size()) {
                problems.add("row " + (r + 1) + ": expected " + header.size() + " fields, found " + rec.size() + " (skipped)");
                continue;
            }
            rows.add(rec.stream().map(String::trim).toArray(String[]::new));
        }
        return new Table(header, rows, problems);
    }

    static boolean isMissing(String value) {
        return MISSING.contains(value.toLowerCase(Locale.ROOT));
    }

    static Double parseNumber(String value) {
        try {
            double d = Double.parseDouble(value.replace("_", ""));
            return Double.isFinite(d) ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ statistics

    /** Percentile with linear interpolation between closest ranks (the "type 7" definition). */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 1) return sorted[0];
        double rank = p * (sorted.length - 1);
        int lo = (int) Math.floor(rank), hi = (int) Math.ceil(rank);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
    }

    static NumericStats numericStats(List<String[]> rows, int column) {
        List<double[]> values = new ArrayList<>(); // {row number, value}
        int missing = 0, nonNumeric = 0;
        for (int r = 0; r < rows.size(); r++) {
            String raw = rows.get(r)[column];
            if (isMissing(raw)) {
                missing++;
                continue;
            }
            Double d = parseNumber(raw);
            if (d == null) nonNumeric++;
            else values.add(new double[] {r + 1, d}); // 1-based data row number
        }
        int n = values.size();
        if (n == 0) return new NumericStats(0, missing, nonNumeric, null, null, null, null, null, null, null, null, null, null, null, List.of());
        double[] sorted = values.stream().mapToDouble(v -> v[1]).sorted().toArray();
        double mean = Arrays.stream(sorted).sum() / n;
        double variance = n > 1 ? Arrays.stream(sorted).map(v -> (v - mean) * (v - mean)).sum() / (n - 1) : 0.0;
        double q1 = percentile(sorted, 0.25), q2 = percentile(sorted, 0.5), q3 = percentile(sorted, 0.75);
        double iqr = q3 - q1, low = q1 - 1.5 * iqr, high = q3 + 1.5 * iqr;
        List<Outlier> outliers = values.stream().filter(v -> v[1] < low || v[1] > high)
                .map(v -> new Outlier((int) v[0], v[1])).toList();
        return new NumericStats(n, missing, nonNumeric, round(mean), round(q2), round(Math.sqrt(variance)), round(variance),
                sorted[0], sorted[n - 1], round(q1), round(q2), round(q3), round(low), round(high), outliers);
    }

    static CategoricalStats categoricalStats(List<String[]> rows, int column) {
        Map<String, Integer> counts = new HashMap<>();
        int missing = 0;
        for (String[] row : rows) {
            if (isMissing(row[column])) missing++;
            else counts.merge(row[column], 1, Integer::sum);
        }
        List<Map.Entry<String, Integer>> ordered = new ArrayList<>(counts.entrySet());
        ordered.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        Map<String, Integer> top = new LinkedHashMap<>();
        ordered.stream().limit(10).forEach(e -> top.put(e.getKey(), e.getValue()));
        return new CategoricalStats(rows.size() - missing, missing, counts.size(), ordered.isEmpty() ? null : ordered.get(0).getKey(), top);
    }

    static boolean looksNumeric(List<String[]> rows, int column) {
        int present = 0, numeric = 0;
        for (String[] row : rows) {
            if (isMissing(row[column])) continue;
            present++;
            if (parseNumber(row[column]) != null) numeric++;
        }
        return present > 0 && numeric >= NUMERIC_THRESHOLD * present;
    }

    static Double round(double v) {
        return Math.round(v * 10000.0) / 10000.0;
    }

    // ------------------------------------------------------------------ analysis and output

    private final Map<String, NumericStats> numeric = new LinkedHashMap<>();
    private final Map<String, CategoricalStats> categorical = new LinkedHashMap<>();
    private final List<String> allMissing = new ArrayList<>();
    private Table table;

    void analyze(Table t) {
        table = t;
        for (int c = 0; c < t.header().size(); c++) {
            String name = t.header().get(c).isEmpty() ? "column_" + (c + 1) : t.header().get(c);
            final int col = c;
            boolean empty = t.rows().stream().allMatch(r -> isMissing(r[col]));
            if (empty) allMissing.add(name);
            if (!empty && looksNumeric(t.rows(), c)) numeric.put(name, numericStats(t.rows(), c));
            else categorical.put(name, categoricalStats(t.rows(), c));
        }
    }

    void printReport(Path source) {
        System.out.printf("%nFile: %s  (%d data rows, %d columns)%n", source, table.rows().size(), table.header().size());
        table.problems().forEach(p -> System.out.println("  warning: " + p));
        if (!allMissing.isEmpty()) System.out.println("  warning: all values missing in " + allMissing);
        if (!numeric.isEmpty()) {
            String fmt = "%-12s %6s %5s %11s %11s %11s %11s %11s %11s %11s %11s %8s%n";
            System.out.println();
            System.out.printf(fmt, "NUMERIC", "count", "miss", "mean", "median", "std", "min", "p25", "p75", "max", "variance", "outliers");
            System.out.println("-".repeat(128));
            numeric.forEach((name, s) -> System.out.printf(fmt, name, s.count(), s.missing(), num(s.mean()), num(s.median()),
                    num(s.stdDev()), num(s.min()), num(s.p25()), num(s.p75()), num(s.max()), num(s.variance()), s.outliers().size()));
            numeric.forEach((name, s) -> {
                if (!s.outliers().isEmpty()) {
                    List<String> shown = s.outliers().stream().limit(6).map(o -> num(o.value()) + " (row " + o.row() + ")").toList();
                    System.out.printf("  outliers in %s [%s, %s]: %s%s%n", name, num(s.iqrLow()), num(s.iqrHigh()),
                            String.join(", ", shown), s.outliers().size() > 6 ? ", ..." : "");
                }
                if (s.nonNumeric() > 0) System.out.printf("  %s: %d non-numeric value(s) ignored%n", name, s.nonNumeric());
            });
        }
        if (!categorical.isEmpty()) {
            String fmt = "%-12s %6s %5s %7s  %-18s %s%n";
            System.out.println();
            System.out.printf(fmt, "CATEGORICAL", "count", "miss", "unique", "most frequent", "top values");
            System.out.println("-".repeat(128));
            categorical.forEach((name, s) -> {
                List<String> top = s.top10().entrySet().stream().limit(5).map(e -> e.getKey() + "=" + e.getValue()).toList();
                System.out.printf(fmt, name, s.count(), s.missing(), s.unique(), s.mostFrequent() == null ? "-" : s.mostFrequent(), String.join(", ", top));
            });
        }
    }

    private static String num(Double v) {
        if (v == null) return "-";
        return Math.abs(v) >= 1e7 ? String.format(Locale.ROOT, "%.4g", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    /** Streams report.json with a jackson-core JsonGenerator; the per-column records go through databind. */
    void writeJson(Path source, Path output) throws IOException {
        ObjectMapper mapper = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
        JsonFactory factory = mapper.getFactory();
        try (JsonGenerator gen = factory.createGenerator(Files.newOutputStream(output), JsonEncoding.UTF8)) {
            gen.useDefaultPrettyPrinter();
            gen.writeStartObject();
            gen.writeStringField("source", source.toString());
            gen.writeStringField("generated", Instant.now().toString());
            gen.writeNumberField("rows", table.rows().size());
            gen.writeNumberField("columns", table.header().size());
            gen.writeArrayFieldStart("warnings");
            for (String p : table.problems()) gen.writeString(p);
            for (String c : allMissing) gen.writeString("all values missing in " + c);
            gen.writeEndArray();
            gen.writeObjectFieldStart("column_types");
            for (String c : numeric.keySet()) gen.writeStringField(c, "numeric");
            for (String c : categorical.keySet()) gen.writeStringField(c, "categorical");
            gen.writeEndObject();
            gen.writeFieldName("numeric");
            mapper.writeValue(gen, numeric);
            gen.writeFieldName("categorical");
            mapper.writeValue(gen, categorical);
            gen.writeEndObject();
        }
    }

    // ------------------------------------------------------------------ sample data and main

    static void writeSample(Path path) throws IOException {
        Random rnd = new Random(20240501L);
        String[] cities = {"Berlin", "Lisbon", "\"Portland, OR\"", "Osaka", "Nairobi", "Lima", "\"Austin, TX\""};
        String[] segments = {"retail", "wholesale", "online", "partner"};
        try (Writer w = Files.newBufferedWriter(path, StandardCharsets.UTF_8)) {
            w.write("age,income,score,height_cm,purchases,city,segment\n");
            for (int i = 1; i <= 220; i++) {
                String age = String.valueOf(18 + rnd.nextInt(60));
                String income = String.format(Locale.ROOT, "%.2f", 32000 + rnd.nextGaussian() * 9000);
                String score = String.format(Locale.ROOT, "%.1f", 70 + rnd.nextGaussian() * 8);
                String height = String.format(Locale.ROOT, "%.1f", 171 + rnd.nextGaussian() * 9);
                String purchases = String.valueOf(rnd.nextInt(25));
                String city = cities[Math.min(cities.length - 1, (int) Math.abs(rnd.nextGaussian() * 2.2))];
                String segment = segments[rnd.nextInt(segments.length)];
                if (i % 17 == 0) income = "";             // missing values
                if (i % 29 == 0) score = "N/A";
                if (i % 41 == 0) age = "unknown";           // mixed types
                if (i == 50 || i == 120) income = "250000"; // outliers
                if (i == 77) score = "3.5";
                if (i == 150) height = "242.0";
                if (i % 53 == 0) segment = "";
                w.write(String.join(",", age, income, score, height, purchases, city, segment) + "\n");
                if (i == 99) w.write("42,oops,this row,has too many,fields,x,y,z\n"); // malformed row
            }
        }
    }

    /** Runs the analyzer over tiny inline CSVs to show the edge cases are handled. */
    static void edgeCases() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("empty file", "");
        cases.put("header only", "a,b,c\n");
        cases.put("single row", "x,y\n1.5,hello\n");
        cases.put("all-missing column", "x,y\n1,\n2,NA\n3,\n");
        cases.put("quoted commas", "name,amount\n\"Smith, John\",10\n\"Doe, \"\"JD\"\" Jane\",20\n");
        System.out.println("\nEdge cases:");
        cases.forEach((label, text) -> {
            Table t = parseTable(text);
            CsvAnalyzer a = new CsvAnalyzer();
            a.analyze(t);
            String outcome = t.header().isEmpty() ? "no header: nothing to analyze"
                    : t.rows().isEmpty() ? "header only: " + t.header().size() + " column(s), no data rows"
                    : "numeric=" + a.numeric.keySet() + " categorical=" + a.categorical.keySet()
                      + (a.allMissing.isEmpty() ? "" : " all-missing=" + a.allMissing)
                      + a.categorical.entrySet().stream().filter(e -> e.getValue().mostFrequent() != null).findFirst()
                              .map(e -> " most frequent " + e.getKey() + "=" + e.getValue().mostFrequent()).orElse("");
            System.out.printf("  %-20s -> %s%n", label, outcome);
        });
    }

    public static void main(String[] args) {
        Path input;
        try {
            if (args.length == 0) {
                input = Paths.get("sample_data.csv");
                writeSample(input);
                System.out.println("No input file given: generated " + input + " (220 rows, 5 numeric + 2 categorical columns, with messy values)");
            } else {
                input = Paths.get(args[0]);
            }
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(input))).toString();
            } catch (CharacterCodingException e) {
                text = new String(Files.readAllBytes(input), StandardCharsets.ISO_8859_1);
                System.out.println("warning: " + input + " is not UTF-8; read as ISO-8859-1");
            }
            Table table = parseTable(text);
            if (table.header().isEmpty()) {
                System.out.println(input + " is empty: nothing to analyze");
                return;
            }
            if (table.rows().isEmpty()) {
                System.out.println(input + " has a header (" + String.join(", ", table.header()) + ") but no data rows");
                return;
            }
            CsvAnalyzer analyzer = new CsvAnalyzer();
            analyzer.analyze(table);
            analyzer.printReport(input);
            Path output = Paths.get("report.json");
            analyzer.writeJson(input, output);
            System.out.println("\nSaved full analysis to " + output);
            if (args.length == 0) edgeCases();
        } catch (NoSuchFileException e) {
            System.err.println("error: file not found: " + e.getFile());
            System.exit(1);
        } catch (IOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
        }
    }
}
