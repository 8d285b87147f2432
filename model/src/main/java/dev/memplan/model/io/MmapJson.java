package dev.memplan.model.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memplan.model.mmap.Action;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.InvalidInstanceException;
import dev.memplan.model.mmap.Mapping;
import dev.memplan.model.mmap.MmapBuffer;
import dev.memplan.model.mmap.MmapInstance;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The two-level memory mapping formats: instances ({@code memplan-mmap/1}) and mappings
 * ({@code memplan-mmap-mapping/1}).
 *
 * <pre>{"format": "memplan-mmap/1", "name": "resnet50", "capacity": 1048576,
 *  "supply": [812, 96, 1204],
 *  "buffers": [
 *    {"tensor": 0, "kind": "input", "time": 0, "live": [0, 0], "size": 4096, "demand": 256, "benefit": 192},
 *    {"tensor": 1, "alias": 4, "kind": "output", "time": 0, "live": [0, 2], "size": 2048, "demand": 128, "benefit": 96}]}</pre>
 *
 * {@code supply} holds one value per instruction (logical time); buffers are listed by time, the order the game
 * visits them; {@code alias} is optional (absent: a group of its own). Mappings hold one decision per buffer, in
 * the same order: {@code {"action": "copy", "start": 2, "end": 5, "offset": 0}} or {@code {"action": "drop"}};
 * their {@code planner}, {@code status}, {@code reward} and {@code bound} fields are informative. Unknown fields are
 * rejected; a file that breaks a rule of {@link MmapInstance} is reported at the JSON path of the culprit.
 */
public final class MmapJson {
    public static final String FORMAT = "memplan-mmap/1";
    public static final String MAPPING_FORMAT = "memplan-mmap-mapping/1";

    private static final List<String> ROOT_FIELDS = List.of("format", "name", "capacity", "supply", "buffers");
    private static final List<String> BUFFER_FIELDS = List.of("tensor", "alias", "kind", "time", "live", "size",
            "demand", "benefit");
    private static final List<String> MAPPING_FIELDS = List.of("format", "instance", "planner", "status", "reward",
            "bound", "decisions");
    private static final List<String> DECISION_FIELDS = List.of("action", "start", "end", "offset");

    private MmapJson() {
    }

    /**
     * Whether the file says it is an instance (its first 4 KiB name {@link #FORMAT}): a graph file is not read as
     * one.
     */
    public static boolean isInstanceFile(Path file) {
        try (java.io.InputStream s = java.nio.file.Files.newInputStream(file)) {
            return new String(s.readNBytes(4096), java.nio.charset.StandardCharsets.UTF_8).contains("\"" + FORMAT + "\"");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file + ": " + AtomicFiles.reason(e), e);
        }
    }

    public static MmapInstance read(Path file) {
        return instance(JsonTree.parse(AtomicFiles.readBytes(file), file.toString()), file.toString());
    }

    /** Reads an instance from JSON text; {@code fileName} is used in error messages. */
    public static MmapInstance read(String json, String fileName) {
        return instance(JsonTree.parse(json, fileName), fileName);
    }

    public static void write(MmapInstance instance, Path file) {
        AtomicFiles.write(file, toJson(instance));
    }

    /** The instance as memplan-mmap/1 text, one buffer per line. */
    public static String toJson(MmapInstance instance) {
        ObjectNode root = JsonTree.NODES.objectNode();
        root.put("format", FORMAT);
        root.put("name", instance.name());
        root.put("capacity", instance.capacity());
        ArrayNode supply = root.putArray("supply");
        for (long s : instance.supply()) {
            supply.add(s);
        }
        ArrayNode buffers = root.putArray("buffers");
        for (MmapBuffer b : instance.buffers()) {
            ObjectNode node = buffers.addObject();
            node.put("tensor", b.tensor());
            if (b.alias() >= 0) {
                node.put("alias", b.alias());
            }
            node.put("kind", b.output() ? "output" : "input");
            node.put("time", b.time());
            node.putArray("live").add(b.liveFirst()).add(b.liveLast());
            node.put("size", b.size());
            node.put("demand", b.demand());
            node.put("benefit", b.benefit());
        }
        return JsonTree.render(root, Set.of("buffers"));
    }

    static MmapInstance instance(JsonNode tree, String file) {
        JsonFields root = JsonFields.of(file, tree, "$", "a " + FORMAT + " document");
        root.requireFormat(FORMAT);
        root.rejectUnknown(ROOT_FIELDS);
        String name = root.string("name", "the program's name");
        long capacity = root.longValue("capacity", "the fast memory's size in bytes");
        List<JsonNode> supplyNodes = root.array("supply", "the copy supply of each instruction");
        long[] supply = new long[supplyNodes.size()];
        for (int t = 0; t < supply.length; t++) {
            supply[t] = root.asLong(supplyNodes.get(t), JsonTree.element(root.path("supply"), t),
                    "a supply value must be an integer");
        }
        List<JsonNode> bufferNodes = root.array("buffers", "the list of buffers by time");
        List<MmapBuffer> buffers = new ArrayList<>(bufferNodes.size());
        for (int i = 0; i < bufferNodes.size(); i++) {
            buffers.add(buffer(JsonFields.of(file, bufferNodes.get(i), JsonTree.element(root.path("buffers"), i),
                    "a buffer")));
        }
        try {
            return new MmapInstance(name, capacity, supply, buffers);
        } catch (InvalidInstanceException e) {
            throw new FormatException(file, "$." + e.where(), e.problem(), e);
        }
    }

    private static MmapBuffer buffer(JsonFields b) {
        b.rejectUnknown(BUFFER_FIELDS);
        int tensor = b.intValue("tensor", "the tensor's id (an integer)");
        int alias = b.has("alias") ? b.intValue("alias", "the alias group's id (an integer)") : -1;
        if (b.has("alias") && alias < 0) {
            throw b.error("alias", "alias must be >= 0 (leave it out for a group of its own), got " + alias);
        }
        String kind = b.string("kind", "input or output");
        if (!kind.equals("input") && !kind.equals("output")) {
            throw b.error("kind", "unknown kind '" + kind + "'; expected input or output");
        }
        int time = b.intValue("time", "the logical time of its instruction");
        List<JsonNode> live = b.array("live", "the live range [first, last]");
        if (live.size() != 2) {
            throw b.error("live", "live must be [first, last], found " + live.size() + " values");
        }
        long first = b.asLong(live.get(0), JsonTree.element(b.path("live"), 0), "a logical time must be an integer");
        long last = b.asLong(live.get(1), JsonTree.element(b.path("live"), 1), "a logical time must be an integer");
        if (first < Integer.MIN_VALUE || last > Integer.MAX_VALUE || first > Integer.MAX_VALUE
                || last < Integer.MIN_VALUE) {
            throw b.error("live", "live range [" + first + ", " + last + "] does not fit 32-bit times");
        }
        return new MmapBuffer(tensor, alias, b.longValue("size", "an integer number of bytes"), kind.equals("output"),
                time, (int) first, (int) last, b.longValue("demand", "an integer copy demand"),
                b.longValue("benefit", "an integer benefit"));
    }

    /** Writes a mapping with its informative fields (planner, status, reward, bound; bound &lt; 0: none). */
    public static void writeMapping(MmapInstance instance, Mapping mapping, String planner, String status, long bound,
            Path file) {
        AtomicFiles.write(file, mappingToJson(instance, mapping, planner, status, bound));
    }

    public static String mappingToJson(MmapInstance instance, Mapping mapping, String planner, String status,
            long bound) {
        ObjectNode root = JsonTree.NODES.objectNode();
        root.put("format", MAPPING_FORMAT);
        root.put("instance", instance.name());
        root.put("planner", planner);
        root.put("status", status);
        root.put("reward", mapping.reward(instance));
        if (bound >= 0) {
            root.put("bound", bound);
        }
        ArrayNode decisions = root.putArray("decisions");
        for (Decision d : mapping.decisions()) {
            ObjectNode node = decisions.addObject();
            node.put("action", d.action().fileName());
            if (d.placed()) {
                node.put("start", d.start());
                node.put("end", d.end());
                node.put("offset", d.offset());
            }
        }
        return JsonTree.render(root, Set.of("decisions"));
    }

    public static Mapping readMapping(Path file) {
        return mapping(JsonTree.parse(AtomicFiles.readBytes(file), file.toString()), file.toString());
    }

    public static Mapping readMapping(String json, String fileName) {
        return mapping(JsonTree.parse(json, fileName), fileName);
    }

    static Mapping mapping(JsonNode tree, String file) {
        JsonFields root = JsonFields.of(file, tree, "$", "a " + MAPPING_FORMAT + " document");
        root.requireFormat(MAPPING_FORMAT);
        root.rejectUnknown(MAPPING_FIELDS);
        List<JsonNode> nodes = root.array("decisions", "one decision per buffer");
        List<Decision> decisions = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            JsonFields d = JsonFields.of(file, nodes.get(i), JsonTree.element(root.path("decisions"), i), "a decision");
            d.rejectUnknown(DECISION_FIELDS);
            String text = d.string("action", "copy, nocopy or drop");
            Action action = Action.fromFileName(text);
            if (action == null) {
                throw d.error("action", "unknown action '" + text + "'; expected copy, nocopy or drop");
            }
            if (action == Action.DROP) {
                decisions.add(Decision.DROP);
            } else {
                decisions.add(new Decision(action, d.intValue("start", "the first logical time in fast memory"),
                        d.intValue("end", "the last logical time in fast memory"),
                        d.longValue("offset", "the offset in bytes")));
            }
        }
        return new Mapping(decisions);
    }
}
