package dev.memplan.model.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * The JSON side shared by the readers and writers: strict parsing into a tree with syntax errors located by
 * line and column, JSON paths for structural errors, and a compact rendering with one list element per line.
 */
final class JsonTree {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private JsonTree() {
    }

    /** Parses a whole document; syntax errors become a {@link FormatException} at "line L, column C". */
    static JsonNode parse(String text, String file) {
        try (JsonParser parser = MAPPER.getFactory().createParser(text)) {
            return parse(parser, file);
        } catch (IOException e) {
            throw syntaxError(e, file, null);
        }
    }

    static JsonNode parse(byte[] bytes, String file) {
        try (JsonParser parser = MAPPER.getFactory().createParser(bytes)) {
            return parse(parser, file);
        } catch (IOException e) {
            throw syntaxError(e, file, null);
        }
    }

    private static JsonNode parse(JsonParser parser, String file) throws IOException {
        JsonNode root;
        try {
            root = MAPPER.readTree(parser);
        } catch (IOException e) {
            // Some errors (a limit such as the nesting depth) carry no location; the parser knows where it is.
            throw syntaxError(e, file, parser.currentLocation());
        }
        if (root == null || root.isMissingNode()) {
            throw new FormatException(file, "line 1, column 1", "empty file, expected a JSON object");
        }
        return root;
    }

    private static FormatException syntaxError(IOException e, String file, JsonLocation current) {
        if (e instanceof JsonProcessingException jpe) {
            JsonLocation at = jpe.getLocation() != null ? jpe.getLocation() : current;
            String where = at == null ? "line ?" : "line " + at.getLineNr() + ", column " + at.getColumnNr();
            return new FormatException(file, where, "invalid JSON: " + JsonErrors.plain(jpe.getOriginalMessage()), e);
        }
        return new FormatException(file, "line ?", "unreadable JSON: " + JsonErrors.scrub(String.valueOf(e.getMessage())), e);
    }

    /** The JSON path of a field of the object at {@code path}: {@code $.a.b}, or {@code $.a['x.y']}. */
    static String field(String path, String key) {
        if (IDENTIFIER.matcher(key).matches()) {
            return path + "." + key;
        }
        return path + "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']";
    }

    static String element(String path, int index) {
        return path + "[" + index + "]";
    }

    /** A short description of a JSON value for error messages, e.g. {@code string "12"}. */
    static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        if (node.isNull()) {
            return "null";
        }
        if (node.isTextual()) {
            String text = node.asText();
            if (text.length() > 40) {
                text = text.substring(0, 37) + "...";
            }
            return "string " + TextNode.valueOf(text);
        }
        if (node.isNumber()) {
            return "number " + node;
        }
        if (node.isBoolean()) {
            return node.asText();
        }
        if (node.isArray()) {
            return "an array";
        }
        if (node.isObject()) {
            return "an object";
        }
        return node.getNodeType().toString().toLowerCase(Locale.ROOT);
    }

    /**
     * Renders an object with one field per line; the arrays named in {@code listed} get one element per line.
     * Everything else is inline, with a space after every colon and comma.
     */
    static String render(ObjectNode root, Set<String> listed) {
        StringBuilder sb = new StringBuilder("{");
        Iterator<Map.Entry<String, JsonNode>> fields = root.fields();
        boolean first = true;
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            sb.append(first ? "\n  " : ",\n  ").append(TextNode.valueOf(e.getKey())).append(": ");
            first = false;
            JsonNode value = e.getValue();
            if (listed.contains(e.getKey()) && value.isArray() && !value.isEmpty()) {
                sb.append('[');
                for (int i = 0; i < value.size(); i++) {
                    sb.append(i == 0 ? "\n    " : ",\n    ");
                    inline(value.get(i), sb);
                }
                sb.append("\n  ]");
            } else {
                inline(value, sb);
            }
        }
        return sb.append(first ? "}\n" : "\n}\n").toString();
    }

    static void inline(JsonNode node, StringBuilder sb) {
        if (node.isObject()) {
            StringJoiner joiner = new StringJoiner(", ", "{", "}");
            node.fields().forEachRemaining(e -> {
                StringBuilder part = new StringBuilder().append(TextNode.valueOf(e.getKey())).append(": ");
                inline(e.getValue(), part);
                joiner.add(part);
            });
            sb.append(joiner);
        } else if (node.isArray()) {
            StringJoiner joiner = new StringJoiner(", ", "[", "]");
            for (JsonNode element : node) {
                StringBuilder part = new StringBuilder();
                inline(element, part);
                joiner.add(part);
            }
            sb.append(joiner);
        } else {
            sb.append(node);
        }
    }

    static ArrayNode strings(Iterable<String> values) {
        ArrayNode array = NODES.arrayNode();
        values.forEach(array::add);
        return array;
    }
}
