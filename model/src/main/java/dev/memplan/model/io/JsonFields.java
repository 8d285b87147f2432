package dev.memplan.model.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memplan.model.ByteRange;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Typed access to the fields of one JSON object, failing with a {@link FormatException} that names the JSON
 * path, what was expected and what was found. Absent fields and fields set to null are treated alike.
 */
final class JsonFields {
    private final String file;
    private final JsonNode node;
    private final String path;

    private JsonFields(String file, JsonNode node, String path) {
        this.file = file;
        this.node = node;
        this.path = path;
    }

    /** The object at {@code path}; fails unless {@code node} is an object. */
    static JsonFields of(String file, JsonNode node, String path, String what) {
        if (node == null || !node.isObject()) {
            throw new FormatException(file, path, "expected " + what + " (a JSON object), found "
                    + JsonTree.describe(node));
        }
        return new JsonFields(file, node, path);
    }

    String path() {
        return path;
    }

    String path(String key) {
        return JsonTree.field(path, key);
    }

    FormatException error(String key, String problem) {
        return new FormatException(file, key == null ? path : path(key), problem);
    }

    /** Rejects every field not in {@code known}, listing the known ones. */
    void rejectUnknown(List<String> known) {
        Set<String> set = Set.copyOf(known);
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!set.contains(name)) {
                throw error(name, "unknown field '" + name + "'; expected " + String.join(", ", known));
            }
        }
    }

    /**
     * Fails unless the "format" field is exactly one of {@code expected}, saying which formats this reader
     * understands; returns the one found. Checked before anything else, so a file of another kind or version
     * gets this message.
     */
    String requireFormat(String... expected) {
        String understood = "\"" + String.join("\" or \"", expected) + "\"";
        JsonNode value = node.get("format");
        if (value == null || value.isNull()) {
            throw error("format", "missing field 'format'; this reader understands " + understood);
        }
        if (!value.isTextual() || !List.of(expected).contains(value.textValue())) {
            String found = value.isTextual() ? "'" + value.textValue() + "'" : JsonTree.describe(value);
            throw error("format", "unknown format " + found + "; this reader understands " + understood + " only");
        }
        return value.textValue();
    }

    boolean has(String key) {
        JsonNode value = node.get(key);
        return value != null && !value.isNull();
    }

    private JsonNode required(String key, String what) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            throw error(key, "missing field '" + key + "': expected " + what);
        }
        return value;
    }

    String string(String key, String what) {
        JsonNode value = required(key, what + " (a string)");
        if (!value.isTextual()) {
            throw error(key, key + " must be " + what + " (a string), found " + JsonTree.describe(value));
        }
        return value.textValue();
    }

    /** A string that is not empty (names: an empty one would be shown as nothing in every message). */
    String name(String key, String what) {
        String value = string(key, what);
        if (value.isEmpty()) {
            throw error(key, key + " must be " + what + ", found an empty string");
        }
        return value;
    }

    /** A string, or null when absent. */
    String optionalString(String key, String what) {
        return has(key) ? string(key, what) : null;
    }

    long longValue(String key, String what) {
        return asLong(required(key, what), path(key), key + " must be " + what);
    }

    /** An integer byte count (budget, offset) at most {@link ByteRange#MAX}, or a FormatException at the key. */
    long bytes(String key, String what) {
        long value = longValue(key, what);
        String problem = ByteRange.problem(value, key);
        if (problem != null) {
            throw error(key, problem);
        }
        return value;
    }

    int intValue(String key, String what) {
        long value = longValue(key, what);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw error(key, key + " must be " + what + " that fits a 32-bit integer, found " + value);
        }
        return (int) value;
    }

    double doubleValue(String key, String what) {
        JsonNode value = required(key, what);
        if (!value.isNumber() || !Double.isFinite(value.doubleValue())) {
            throw error(key, key + " must be " + what + ", found " + JsonTree.describe(value));
        }
        return value.doubleValue();
    }

    /** A JSON array, element nodes in order. */
    List<JsonNode> array(String key, String what) {
        JsonNode value = required(key, what + " (an array)");
        if (!value.isArray()) {
            throw error(key, key + " must be " + what + " (an array), found " + JsonTree.describe(value));
        }
        List<JsonNode> elements = new ArrayList<>(value.size());
        value.forEach(elements::add);
        return elements;
    }

    /** An array of strings; an element of another type is reported at its own path. */
    List<String> strings(String key, String what, String elementWhat) {
        List<JsonNode> elements = array(key, what);
        List<String> values = new ArrayList<>(elements.size());
        for (int i = 0; i < elements.size(); i++) {
            JsonNode e = elements.get(i);
            if (!e.isTextual()) {
                throw new FormatException(file, JsonTree.element(path(key), i), "expected " + elementWhat
                        + " (a string), found " + JsonTree.describe(e));
            }
            values.add(e.textValue());
        }
        return values;
    }

    JsonFields object(String key, String what) {
        return of(file, required(key, what + " (a JSON object)"), path(key), what);
    }

    JsonNode raw(String key) {
        return node.get(key);
    }

    /** An integral JSON number that fits a long, or a FormatException at {@code where}. */
    long asLong(JsonNode value, String where, String expectation) {
        if (!value.isIntegralNumber()) {
            throw new FormatException(file, where, expectation + ", found " + JsonTree.describe(value));
        }
        if (!value.canConvertToLong()) {
            throw new FormatException(file, where, expectation + ", found " + value
                    + ", which does not fit a 64-bit integer");
        }
        return value.longValue();
    }
}
