package com.example.validator;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Validates a JSON document against a schema of user-defined rules (type, required, properties,
 * items, minimum/maximum, minLength/maxLength, minItems/maxItems, enum, pattern) and collects every
 * violation with its full JSON path.
 */
public final class JsonSchemaValidator {

    /** One violation: where, which rule, what was expected and what was found. */
    record Violation(String path, String rule, String expected, String actual) {
        String line() {
            return String.format("%-30s %-10s expected %s, got %s", path, rule, expected, actual);
        }
    }

    /** A JSON file that could not be read or parsed: not a validation error. */
    static final class InputException extends Exception {
        InputException(String message) {
            super(message);
        }
    }

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

    private final List<Violation> violations = new ArrayList<>();

    public List<Violation> validate(JsonElement data, JsonObject schema) {
        violations.clear();
        check(data, schema, "$");
        return violations;
    }

    private void check(JsonElement value, JsonObject schema, String path) {
        if (schema.has("type") && !checkType(value, schema.get("type"), path)) {
            return; // further rules would only repeat the type error
        }
        if (schema.has("enum")) {
            JsonArray allowed = schema.getAsJsonArray("enum");
            if (!allowed.contains(value)) {
                add(path, "enum", "one of " + compact(allowed), value);
            }
        }
        if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()) {
            double number = value.getAsDouble();
            if (schema.has("minimum") && number < schema.get("minimum").getAsDouble()) {
                add(path, "minimum", ">= " + schema.get("minimum"), value);
            }
            if (schema.has("maximum") && number > schema.get("maximum").getAsDouble()) {
                add(path, "maximum", "<= " + schema.get("maximum"), value);
            }
        }
        if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isString()) {
            String text = value.getAsString();
            int length = text.codePointCount(0, text.length());
            if (schema.has("minLength") && length < schema.get("minLength").getAsInt()) {
                add(path, "minLength", "length >= " + schema.get("minLength"), value);
            }
            if (schema.has("maxLength") && length > schema.get("maxLength").getAsInt()) {
                add(path, "maxLength", "length <= " + schema.get("maxLength"), value);
            }
            if (schema.has("pattern")) {
                String regex = schema.get("pattern").getAsString();
                try {
                    if (!Pattern.compile(regex).matcher(text).find()) {
                        add(path, "pattern", "match /" + regex + "/", value);
                    }
                } catch (PatternSyntaxException e) {
                    add(path, "pattern", "a valid regex in the schema", new JsonPrimitive(regex));
                }
            }
        }
        if (value.isJsonObject()) {
            JsonObject object = value.getAsJsonObject();
            if (schema.has("required")) {
                for (JsonElement name : schema.getAsJsonArray("required")) {
                    if (!object.has(name.getAsString())) {
                        add(path + "." + name.getAsString(), "required", "field present", JsonNull.INSTANCE);
                    }
                }
            }
            if (schema.has("properties")) {
                for (Map.Entry<String, JsonElement> property : schema.getAsJsonObject("properties").entrySet()) {
                    if (object.has(property.getKey())) {
                        check(object.get(property.getKey()), property.getValue().getAsJsonObject(), path + "." + property.getKey());
                    }
                }
            }
        }
        if (value.isJsonArray()) {
            JsonArray array = value.getAsJsonArray();
            if (schema.has("minItems") && array.size() < schema.get("minItems").getAsInt()) {
                add(path, "minItems", ">= " + schema.get("minItems") + " items", new JsonPrimitive(array.size() + " items"));
            }
            if (schema.has("maxItems") && array.size() > schema.get("maxItems").getAsInt()) {
                add(path, "maxItems", "<= " + schema.get("maxItems") + " items", new JsonPrimitive(array.size() + " items"));
            }
            if (schema.has("items")) {
                JsonObject itemSchema = schema.getAsJsonObject("items");
                for (int i = 0; i < array.size(); i++) {
                    check(array.get(i), itemSchema, path + "[" + i + "]");
                }
            }
        }
    }

    private boolean checkType(JsonElement value, JsonElement typeRule, String path) {
        List<String> allowed = new ArrayList<>();
        if (typeRule.isJsonArray()) {
            typeRule.getAsJsonArray().forEach(t -> allowed.add(t.getAsString()));
        } else {
            allowed.add(typeRule.getAsString());
        }
        String actual = typeOf(value);
        boolean ok = allowed.contains(actual) || (actual.equals("integer") && allowed.contains("number"));
        if (!ok) {
            add(path, "type", String.join("|", allowed), value);
        }
        return ok;
    }

    static String typeOf(JsonElement value) {
        if (value.isJsonNull()) return "null";
        if (value.isJsonObject()) return "object";
        if (value.isJsonArray()) return "array";
        JsonPrimitive p = value.getAsJsonPrimitive();
        if (p.isBoolean()) return "boolean";
        if (p.isString()) return "string";
        double d = p.getAsDouble();
        return d == Math.rint(d) && !Double.isInfinite(d) ? "integer" : "number";
    }

    private void add(String path, String rule, String expected, JsonElement actual) {
        violations.add(new Violation(path, rule, expected, compact(actual)));
    }

    private static String compact(JsonElement element) {
        String text = element.toString();
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }

    static JsonElement readJson(Path file, String role) throws InputException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new InputException(role + " file not found: " + file);
        } catch (IOException e) {
            throw new InputException("cannot read " + role + " file " + file + ": " + e.getMessage());
        }
        try {
            return JsonParser.parseString(text);
        } catch (JsonParseException e) {
            String reason = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            throw new InputException("PARSE ERROR in " + role + " file " + file + ": " + reason);
        }
    }

    static void writeReport(Path output, Path dataFile, Path schemaFile, List<Violation> violations) throws IOException {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("data_file", dataFile.toString());
        report.put("schema_file", schemaFile.toString());
        report.put("valid", violations.isEmpty());
        report.put("error_count", violations.size());
        Map<String, Integer> byRule = new LinkedHashMap<>();
        violations.forEach(v -> byRule.merge(v.rule(), 1, Integer::sum));
        report.put("errors_by_rule", byRule);
        List<Map<String, String>> errors = new ArrayList<>();
        for (Violation v : violations) {
            Map<String, String> e = new LinkedHashMap<>();
            e.put("path", v.path());
            e.put("rule", v.rule());
            e.put("expected", v.expected());
            e.put("actual", v.actual());
            errors.add(e);
        }
        report.put("errors", errors);
        Files.writeString(output, GSON.toJson(report) + "\n", StandardCharsets.UTF_8);
    }

    private static final String SAMPLE_SCHEMA = """
        {
          "type": "object",
          "required": ["company", "founded", "users", "settings"],
          "properties": {
            "company": {"type": "string", "minLength": 2, "maxLength": 40},
            "founded": {"type": "integer", "minimum": 1800, "maximum": 2025},
            "public": {"type": "boolean"},
            "users": {
              "type": "array", "minItems": 1, "maxItems": 10,
              "items": {
                "type": "object",
                "required": ["id", "name", "email", "role"],
                "properties": {
                  "id": {"type": "integer", "minimum": 1},
                  "name": {"type": "string", "minLength": 1},
                  "email": {"type": "string", "pattern": "^[^@\\\\s]+@[^@\\\\s]+\\\\.[a-z]{2,}$"},
                  "age": {"type": "number", "minimum": 0, "maximum": 150},
                  "role": {"type": "string", "enum": ["admin", "editor", "viewer"]},
                  "tags": {"type": "array", "items": {"type": "string", "maxLength": 12}}
                }
              }
            },
            "settings": {
              "type": "object",
              "required": ["theme", "limits"],
              "properties": {
                "theme": {"type": "string", "enum": ["light", "dark"]},
                "limits": {
                  "type": "object",
                  "properties": {
                    "maxUploadMb": {"type": "number", "minimum": 1, "maximum": 100},
                    "retention": {"type": ["integer", "null"]}
                  }
                }
              }
            }
          }
        }
        """;

    private static final String SAMPLE_DATA = """
        {
          "company": "A",
          "founded": 2031,
          "public": "yes",
          "users": [
            {"id": 1, "name": "Ada", "email": "ada@example.com", "age": 36, "role": "admin", "tags": ["math", "engines"]},
            {"id": 0, "name": "", "email": "bob@example.org", "role": "owner"},
            {"id": 3, "name": "Cleo", "email": "cleo(at)example", "age": 212, "role": "viewer", "tags": ["ok", 7, "much-too-long-tag"]},
            {"id": "4", "email": "dan@example.net", "role": "editor"}
          ],
          "settings": {
            "theme": "solarized",
            "limits": {"maxUploadMb": 512, "retention": "forever"}
          }
        }
        """;

    public static void main(String[] args) {
        Path dataFile;
        Path schemaFile;
        boolean demo = args.length == 0;
        try {
            if (demo) {
                dataFile = Paths.get("sample_data.json");
                schemaFile = Paths.get("sample_schema.json");
                Files.writeString(schemaFile, SAMPLE_SCHEMA, StandardCharsets.UTF_8);
                Files.writeString(dataFile, SAMPLE_DATA, StandardCharsets.UTF_8);
                System.out.println("No input given: wrote " + schemaFile + " and " + dataFile + " (with intentional violations)");
            } else if (args.length == 2) {
                dataFile = Paths.get(args[0]);
                schemaFile = Paths.get(args[1]);
            } else {
                System.err.println("usage: java -jar json-schema-validator.jar <data.json> <schema.json>");
                System.exit(2);
                return;
            }
        } catch (IOException e) {
            System.err.println("error: cannot write sample files: " + e.getMessage());
            System.exit(2);
            return;
        }

        JsonElement data;
        JsonElement schema;
        try {
            schema = readJson(schemaFile, "schema");
            data = readJson(dataFile, "data");
        } catch (InputException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (!schema.isJsonObject()) {
            System.err.println("SCHEMA ERROR: the schema must be a JSON object");
            System.exit(2);
            return;
        }

        List<Violation> violations = new JsonSchemaValidator().validate(data, schema.getAsJsonObject());
        System.out.println();
        System.out.println("Validation report for " + dataFile + " against " + schemaFile);
        System.out.println("-".repeat(84));
        if (violations.isEmpty()) {
            System.out.println("VALID: no violations");
        } else {
            System.out.printf("%-30s %-10s %s%n", "PATH", "RULE", "DETAIL");
            violations.forEach(v -> System.out.println(v.line()));
        }
        System.out.println("-".repeat(84));
        System.out.println(violations.size() + " violation(s)");

        Path output = Paths.get("validation_report.json");
        try {
            writeReport(output, dataFile, schemaFile, violations);
            System.out.println("Saved structured report to " + output);
        } catch (IOException e) {
            System.err.println("error: cannot write " + output + ": " + e.getMessage());
            System.exit(2);
        }
        if (!demo && !violations.isEmpty()) {
            System.exit(1);
        }
    }
}
