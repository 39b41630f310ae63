package org.example.schema;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class Validator {
    static List<String> validate(JsonObject schema, JsonObject document) {
        List<String> errors = new ArrayList<>();
        for (JsonElement required : schema.getAsJsonArray("required")) {
            if (!document.has(required.getAsString())) errors.add("missing property: " + required.getAsString());
        }
        JsonObject properties = schema.getAsJsonObject("properties");
        for (Map.Entry<String, JsonElement> p : properties.entrySet()) {
            if (!document.has(p.getKey())) continue;
            String type = p.getValue().getAsJsonObject().get("type").getAsString();
            JsonElement value = document.get(p.getKey());
            boolean ok = switch (type) {
                case "string" -> value.isJsonPrimitive() && value.getAsJsonPrimitive().isString();
                case "number" -> value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber();
                default -> true;
            };
            if (!ok) errors.add(p.getKey() + ": expected " + type);
        }
        return errors;
    }

    public static void main(String[] args) {
        JsonObject schema = JsonParser.parseString("{\"required\":[\"name\",\"age\"],\"properties\":{\"name\":{\"type\":\"string\"},\"age\":{\"type\":\"number\"}}}").getAsJsonObject();
        JsonObject document = JsonParser.parseString("{\"name\":\"Ada\",\"age\":\"36\"}").getAsJsonObject();
        JsonSchema.check(schema);
        List<String> errors = validate(schema, document);
        System.out.println(errors.isEmpty() ? "valid" : "invalid: " + String.join("; ", errors));
    }
}
