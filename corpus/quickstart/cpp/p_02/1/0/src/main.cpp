// JSON Schema Validator: validates a JSON document against user-defined schema rules (type,
// required, properties, items, minimum/maximum, minLength/maxLength, minItems/maxItems, enum,
// pattern), collecting every violation with its full JSON path, e.g. $.users[2].email.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

struct Violation {
    std::string path, rule, expected, actual;
};

/** A file that cannot be read or parsed: reported apart from validation errors. */
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string compact(const ordered_json& value) {
    std::string text = value.dump();
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string typeOf(const ordered_json& v) {
    switch (v.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return "boolean";
        case json::value_t::string: return "string";
        case json::value_t::array: return "array";
        case json::value_t::object: return "object";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: return "integer";
        case json::value_t::number_float: {
            double d = v.get<double>();
            return std::isfinite(d) && d == std::floor(d) ? "integer" : "number";
        }
        default: return "unknown";
    }
}

/** Number of Unicode code points in a UTF-8 string (what minLength/maxLength count). */
size_t codePoints(const std::string& s) {
    return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](unsigned char c) { return (c & 0xC0) != 0x80; }));
}

class Validator {
public:
    std::vector<Violation> validate(const ordered_json& data, const ordered_json& schema) {
        violations_.clear();
        check(data, schema, "$");
        return violations_;
    }

private:
    std::vector<Violation> violations_;
    std::map<std::string, std::regex> regexCache_;

    void add(const std::string& path, const std::string& rule, const std::string& expected, const ordered_json& actual) {
        violations_.push_back({path, rule, expected, compact(actual)});
    }

    bool checkType(const ordered_json& value, const ordered_json& rule, const std::string& path) {
        std::vector<std::string> allowed;
        if (rule.is_array()) {
            for (const auto& t : rule) allowed.push_back(t.get<std::string>());
        } else {
            allowed.push_back(rule.get<std::string>());
        }
        std::string actual = typeOf(value);
        bool ok = std::find(allowed.begin(), allowed.end(), actual) != allowed.end() ||
                  (actual == "integer" && std::find(allowed.begin(), allowed.end(), "number") != allowed.end());
        if (!ok) {
            std::string joined;
            for (const auto& a : allowed) joined += (joined.empty() ? "" : "|") + a;
            add(path, "type", joined, value);
        }
        return ok;
    }

    const std::regex* compiled(const std::string& pattern, const std::string& path) {
        auto it = regexCache_.find(pattern);
        if (it != regexCache_.end()) return &it->second;
        try {
            return &regexCache_.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first->second;
        } catch (const std::regex_error&) {
            add(path, "pattern", "a valid regex in the schema", pattern);
            return nullptr;
        }
    }

    void check(const ordered_json& value, const ordered_json& schema, const std::string& path) {
        if (!schema.is_object()) return;
        if (schema.contains("type") && !checkType(value, schema["type"], path)) return;  // other rules would repeat it
        if (schema.contains("enum")) {
            const auto& allowed = schema["enum"];
            if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) add(path, "enum", "one of " + compact(allowed), value);
        }
        if (value.is_number()) {
            double n = value.get<double>();
            if (schema.contains("minimum") && n < schema["minimum"].get<double>()) add(path, "minimum", ">= " + schema["minimum"].dump(), value);
            if (schema.contains("maximum") && n > schema["maximum"].get<double>()) add(path, "maximum", "<= " + schema["maximum"].dump(), value);
        }
        if (value.is_string()) {
            const auto& text = value.get_ref<const std::string&>();
            size_t len = codePoints(text);
            if (schema.contains("minLength") && len < schema["minLength"].get<size_t>()) add(path, "minLength", "length >= " + schema["minLength"].dump(), value);
            if (schema.contains("maxLength") && len > schema["maxLength"].get<size_t>()) add(path, "maxLength", "length <= " + schema["maxLength"].dump(), value);
            if (schema.contains("pattern")) {
                std::string pattern = schema["pattern"].get<std::string>();
                if (const std::regex* re = compiled(pattern, path); re && !std::regex_search(text, *re))
                    add(path, "pattern", "match /" + pattern + "/", value);
            }
        }
        if (value.is_object()) {
            if (schema.contains("required")) {
                for (const auto& name : schema["required"]) {
                    if (!value.contains(name.get<std::string>())) add(path + "." + name.get<std::string>(), "required", "field present", nullptr);
                }
            }
            if (schema.contains("properties")) {
                for (const auto& [name, sub] : schema["properties"].items()) {
                    if (value.contains(name)) check(value[name], sub, path + "." + name);
                }
            }
        }
        if (value.is_array()) {
            if (schema.contains("minItems") && value.size() < schema["minItems"].get<size_t>())
                add(path, "minItems", ">= " + schema["minItems"].dump() + " items", std::to_string(value.size()) + " items");
            if (schema.contains("maxItems") && value.size() > schema["maxItems"].get<size_t>())
                add(path, "maxItems", "<= " + schema["maxItems"].dump() + " items", std::to_string(value.size()) + " items");
            if (schema.contains("items")) {
                for (size_t i = 0; i < value.size(); ++i) check(value[i], schema["items"], path + "[" + std::to_string(i) + "]");
            }
        }
    }
};

ordered_json readJson(const std::string& file, const std::string& role) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError(role + " file not found or unreadable: " + file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    try {
        return ordered_json::parse(text);
    } catch (const json::parse_error& e) {
        // Turn the byte offset into a line and column.
        size_t offset = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
        size_t lineStart = text.rfind('\n', offset ? offset - 1 : 0);
        size_t column = offset - (lineStart == std::string::npos ? 0 : lineStart + 1) + 1;
        std::string what = e.what();
        auto pos = what.find("syntax error");
        throw InputError("PARSE ERROR in " + role + " file " + file + " at line " + std::to_string(line) + ", column " +
                         std::to_string(column) + ": " + (pos == std::string::npos ? what : what.substr(pos)));
    }
}

void writeReport(const std::string& output, const std::string& dataFile, const std::string& schemaFile, const std::vector<Violation>& violations) {
    ordered_json report;
    report["data_file"] = dataFile;
    report["schema_file"] = schemaFile;
    report["valid"] = violations.empty();
    report["error_count"] = violations.size();
    ordered_json byRule = ordered_json::object();
    for (const auto& v : violations) byRule[v.rule] = byRule.value(v.rule, 0) + 1;
    report["errors_by_rule"] = byRule;
    report["errors"] = ordered_json::array();
    for (const auto& v : violations) report["errors"].push_back({{"path", v.path}, {"rule", v.rule}, {"expected", v.expected}, {"actual", v.actual}});
    std::ofstream out(output);
    if (!out) throw InputError("cannot write " + output);
    out << report.dump(2) << "\n";
}

const char* kSampleSchema = R"({
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
          "email": {"type": "string", "pattern": "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$"},
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
)";

const char* kSampleData = R"({
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
)";

}  // namespace

int main(int argc, char** argv) {
    std::string dataFile, schemaFile;
    bool demo = argc == 1;
    if (demo) {
        dataFile = "sample_data.json";
        schemaFile = "sample_schema.json";
        std::ofstream(schemaFile) << kSampleSchema;
        std::ofstream(dataFile) << kSampleData;
        std::cout << "No input given: wrote " << schemaFile << " and " << dataFile << " (with intentional violations)\n";
    } else if (argc == 3) {
        dataFile = argv[1];
        schemaFile = argv[2];
    } else {
        std::cerr << "usage: json_validator <data.json> <schema.json>\n";
        return 2;
    }

    ordered_json data, schema;
    try {
        schema = readJson(schemaFile, "schema");
        data = readJson(dataFile, "data");
        if (!schema.is_object()) throw InputError("SCHEMA ERROR: the schema must be a JSON object");
    } catch (const InputError& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }

    std::vector<Violation> violations;
    try {
        violations = Validator().validate(data, schema);
    } catch (const json::exception& e) {
        std::cerr << "SCHEMA ERROR: a rule has the wrong type: " << e.what() << "\n";
        return 2;
    }

    std::cout << "\nValidation report for " << dataFile << " against " << schemaFile << "\n" << std::string(84, '-') << "\n";
    if (violations.empty()) {
        std::cout << "VALID: no violations\n";
    } else {
        std::cout << std::left << std::setw(31) << "PATH" << std::setw(11) << "RULE" << "DETAIL\n";
        for (const auto& v : violations)
            std::cout << std::left << std::setw(30) << v.path << " " << std::setw(10) << v.rule << " expected " << v.expected << ", got " << v.actual << "\n";
    }
    std::cout << std::string(84, '-') << "\n" << violations.size() << " violation(s)\n";

    if (demo) {
        // Parse errors are reported apart from validation errors.
        std::ofstream("sample_malformed.json") << "{\n  \"company\": \"Broken Inc\",\n  \"founded\": 1999,\n  \"users\": [ {\"id\": 1,, \"name\": \"x\"} ]\n}\n";
        try {
            readJson("sample_malformed.json", "data");
        } catch (const InputError& e) {
            std::cout << "\nMalformed input example: " << e.what() << "\n";
        }
    }

    try {
        writeReport("validation_report.json", dataFile, schemaFile, violations);
        std::cout << "Saved structured report to validation_report.json\n";
    } catch (const InputError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return demo || violations.empty() ? 0 : 1;
}
