package dev.memplan.sweeps;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A spec value with the place it was written (file, line, column), so that every complaint about a spec can say
 * where: Jackson's tree model drops locations, so the spec is read token by token into this small tree. A value
 * is a scalar (its text), a list or a map (keys in file order).
 */
final class SpecNode {
    private final String file;
    private final int line;
    private final int column;
    private final String scalar;
    private final List<SpecNode> list;
    private final Map<String, SpecNode> map;
    private final Map<String, SpecNode> keys = new LinkedHashMap<>();

    private SpecNode(String file, JsonLocation at, String scalar, List<SpecNode> list, Map<String, SpecNode> map) {
        this.file = file;
        this.line = at.getLineNr();
        this.column = at.getColumnNr();
        this.scalar = scalar;
        this.list = list;
        this.map = map;
    }

    /** Parses YAML (or JSON, a subset of YAML; a {@code .json} file is read as JSON for exact error places). */
    static SpecNode parse(String text, String file) {
        JsonFactory factory = file.endsWith(".json") ? new JsonFactory() : new YAMLFactory();
        try (JsonParser p = factory.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new SweepException(file + ": the spec is empty");
            }
            SpecNode root = read(p, file);
            if (p.nextToken() != null) {
                throw new SweepException(where(file, p.currentTokenLocation()) + ": more than one document in the spec");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new SweepException(where(file, e.getLocation()) + ": not valid " + (factory instanceof YAMLFactory
                    ? "YAML" : "JSON") + ": " + dev.memplan.model.io.JsonErrors.plain(e.getOriginalMessage())
                    .replaceAll("\\s+", " ").trim());
        } catch (IOException e) {
            throw new SweepException(file + ": cannot read: " + dev.memplan.model.io.AtomicFiles.reason(e), e);
        }
    }

    private static SpecNode read(JsonParser p, String file) throws IOException {
        JsonLocation at = p.currentTokenLocation();
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_ARRAY) {
            List<SpecNode> items = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                items.add(read(p, file));
            }
            return new SpecNode(file, at, null, items, null);
        }
        if (t == JsonToken.START_OBJECT) {
            Map<String, SpecNode> fields = new LinkedHashMap<>();
            SpecNode node = new SpecNode(file, at, null, null, fields);
            while (p.nextToken() != JsonToken.END_OBJECT) {
                String key = p.currentName();
                JsonLocation keyAt = p.currentTokenLocation();
                p.nextToken();
                if (fields.containsKey(key)) {
                    throw new SweepException(where(file, keyAt) + ": '" + key + "' appears twice");
                }
                fields.put(key, read(p, file));
                node.keys.put(key, new SpecNode(file, keyAt, key, null, null));
            }
            return node;
        }
        if (t == JsonToken.VALUE_NULL) {
            throw new SweepException(where(file, at) + ": a value is missing");
        }
        return new SpecNode(file, at, p.getText(), null, null);
    }

    private static String where(String file, JsonLocation at) {
        return at == null ? file : file + ":" + at.getLineNr() + ":" + at.getColumnNr();
    }

    /** "file:line:column", the prefix of every message about this value. */
    String where() {
        return file + ":" + line + ":" + column;
    }

    SweepException error(String message) {
        return new SweepException(where() + ": " + message);
    }

    boolean isMap() {
        return map != null;
    }

    boolean isList() {
        return list != null;
    }

    /** The fields of a map, or an error naming what was expected. */
    Map<String, SpecNode> fields(String what) {
        if (map == null) {
            throw error(what + " must be a map of keys to values");
        }
        return map;
    }

    /** Where a map's key is written (for complaints about the key itself). */
    SpecNode key(String name) {
        return keys.get(name);
    }

    /** A scalar's text, or an error naming what was expected. */
    String text(String what) {
        if (scalar == null) {
            throw error(what + " must be a single value, not a " + (list != null ? "list" : "map"));
        }
        return scalar;
    }

    /** The items of a list; a scalar or a map counts as a list of one. */
    List<SpecNode> items() {
        return list != null ? list : List.of(this);
    }

    /** The texts of a list of scalars (a single scalar counts as one). */
    List<String> texts(String what) {
        List<String> out = new ArrayList<>();
        for (SpecNode n : items()) {
            out.add(n.text(what));
        }
        return out;
    }
}
