package dev.memplan.model.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Traffic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The plan file formats of memory-model.md ("Files", "Recomputation"): {@code memplan-plan/1} (graph name, tensor
 * setting, budget, schedule, every tensor's segments, and optionally the recorded traffic and solver information)
 * and {@code memplan-plan/2}, the same with recomputation: the schedule may name an operator more than once,
 * a segment's origin may be {@code recomputed}, and the traffic adds {@code recomputes} and
 * {@code recomputeCost}. Both are read; a plan is written as /1 when it recomputes nothing, so that every /1
 * reader keeps reading what memplan wrote before recomputation, and as /2 otherwise.
 *
 * <p>The reader checks structure only (required fields, types, known names, and what the format version allows),
 * plus the one recompute rule that needs no graph: a recomputed segment starts at a timestep where an operator
 * runs again. Whether the plan obeys the memory model is the {@link dev.memplan.model.PlanChecker}'s business,
 * so that a broken plan can still be read and reported. Tensors and segments keep their order.
 */
public final class PlanJson {
    /** The format without recomputation. */
    public static final String FORMAT_1 = "memplan-plan/1";
    /** The format with recomputation. */
    public static final String FORMAT_2 = "memplan-plan/2";

    private static final List<String> ROOT_FIELDS = List.of("format", "graph", "setting", "budget", "schedule",
            "tensors", "traffic", "solver");
    private static final List<String> TENSOR_FIELDS = List.of("name", "segments");
    private static final List<String> SEGMENT_FIELDS = List.of("start", "end", "offset", "origin");
    private static final List<String> TRAFFIC_FIELDS = List.of("compulsory", "nonCompulsory", "loads", "spills");
    private static final List<String> TRAFFIC_FIELDS_2 = List.of("compulsory", "nonCompulsory", "loads", "spills",
            "recomputes", "recomputeCost");
    private static final List<String> SOLVER_FIELDS = List.of("name", "status", "seconds", "bound");
    private static final String STATUSES = Arrays.stream(SolveStatus.values()).map(Enum::name)
            .collect(Collectors.joining(", "));

    private PlanJson() {
    }

    public static Plan read(Path file) {
        return fromTree(JsonTree.parse(AtomicFiles.readBytes(file), file.toString()), file.toString());
    }

    /** Reads a plan from JSON text; {@code fileName} is used in error messages (e.g. {@code <string>}). */
    public static Plan read(String json, String fileName) {
        return fromTree(JsonTree.parse(json, fileName), fileName);
    }

    public static void write(Plan plan, Path file) {
        AtomicFiles.write(file, toJson(plan));
    }

    /**
     * The format a plan is written in: {@link #FORMAT_2} when it recomputes (its schedule names an operator twice,
     * a segment is recomputed, or its recorded traffic counts recomputes or their cost), else {@link #FORMAT_1}.
     */
    public static String formatOf(Plan plan) {
        boolean recomputes = plan.schedule().recomputes() > 0
                || (plan.traffic() != null && plan.traffic().recomputing())
                || plan.segments().values().stream().flatMap(List::stream)
                        .anyMatch(s -> s.origin() == Origin.RECOMPUTED);
        return recomputes ? FORMAT_2 : FORMAT_1;
    }

    /**
     * The plan as memplan-plan/1 or /2 text ({@link #formatOf(Plan)}), one tensor per line. {@code traffic} and
     * {@code solver} are omitted when null, and so is the solver's bound.
     *
     * @throws IllegalArgumentException when the solver's seconds are not a finite number (JSON has no NaN)
     */
    public static String toJson(Plan plan) {
        String format = formatOf(plan);
        ObjectNode root = JsonTree.NODES.objectNode();
        root.put("format", format);
        root.put("graph", plan.graph());
        root.put("setting", plan.setting().fileName());
        root.put("budget", plan.budget());
        root.set("schedule", JsonTree.strings(plan.schedule().operators()));
        ArrayNode tensors = root.putArray("tensors");
        plan.segments().forEach((name, segments) -> {
            ObjectNode tensor = tensors.addObject();
            tensor.put("name", name);
            ArrayNode list = tensor.putArray("segments");
            for (Segment s : segments) {
                ObjectNode node = list.addObject();
                node.put("start", s.start());
                node.put("end", s.end());
                node.put("offset", s.offset());
                node.put("origin", s.origin().fileName());
            }
        });
        Traffic traffic = plan.traffic();
        if (traffic != null) {
            ObjectNode node = root.putObject("traffic");
            node.put("compulsory", traffic.compulsory());
            node.put("nonCompulsory", traffic.nonCompulsory());
            node.put("loads", traffic.loads());
            node.put("spills", traffic.spills());
            if (format.equals(FORMAT_2)) {
                node.put("recomputes", traffic.recomputes());
                node.put("recomputeCost", traffic.recomputeCost());
            }
        }
        SolverInfo solver = plan.solver();
        if (solver != null) {
            if (!Double.isFinite(solver.seconds())) {
                throw new IllegalArgumentException("solver seconds must be finite, got " + solver.seconds());
            }
            ObjectNode node = root.putObject("solver");
            node.put("name", solver.name());
            node.put("status", solver.status().name());
            node.put("seconds", solver.seconds());
            if (solver.bound() != null) {
                node.put("bound", solver.bound());
            }
        }
        return JsonTree.render(root, Set.of("tensors"));
    }

    private static Plan fromTree(JsonNode tree, String file) {
        JsonFields root = JsonFields.of(file, tree, "$", "a " + FORMAT_1 + " or " + FORMAT_2 + " document");
        boolean recompute = root.requireFormat(FORMAT_1, FORMAT_2).equals(FORMAT_2);
        root.rejectUnknown(ROOT_FIELDS);
        String graph = root.name("graph", "the graph's name");
        String settingText = root.string("setting", "activations or all");
        TensorSetting setting = TensorSetting.fromFileName(settingText);
        if (setting == null) {
            throw root.error("setting", "unknown tensor setting '" + settingText + "'; expected activations or all");
        }
        long budget = root.bytes("budget", "an integer number of bytes");
        if (budget < 0) {
            throw root.error("budget", "budget must be >= 0 bytes, found " + budget);
        }
        Schedule schedule = new Schedule(root.strings("schedule", "the list of operator names in run order",
                "an operator name"));
        boolean[] recomputeRuns = schedule.recomputeRuns();
        if (!recompute) {
            for (int t = 0; t < recomputeRuns.length; t++) {
                if (recomputeRuns[t]) {
                    String name = schedule.operators().get(t);
                    throw new FormatException(file, JsonTree.element(root.path("schedule"), t), "operator '" + name
                            + "' is named again (first at " + JsonTree.element(root.path("schedule"),
                            schedule.operators().indexOf(name)) + "); a " + FORMAT_1 + " schedule runs each operator"
                            + " once, recomputes need " + FORMAT_2);
                }
            }
        }

        List<JsonNode> tensorNodes = root.array("tensors", "the list of tensors and their segments");
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < tensorNodes.size(); i++) {
            JsonFields tensor = JsonFields.of(file, tensorNodes.get(i), JsonTree.element(root.path("tensors"), i),
                    "a tensor with its segments");
            tensor.rejectUnknown(TENSOR_FIELDS);
            String name = tensor.string("name", "the tensor's name");
            Integer previous = seen.putIfAbsent(name, i);
            if (previous != null) {
                throw tensor.error("name", "tensor '" + name + "' is listed twice (also tensors[" + previous + "])");
            }
            List<JsonNode> segmentNodes = tensor.array("segments", "the list of segments");
            List<Segment> list = new ArrayList<>(segmentNodes.size());
            for (int k = 0; k < segmentNodes.size(); k++) {
                list.add(segment(JsonFields.of(file, segmentNodes.get(k),
                        JsonTree.element(tensor.path("segments"), k), "a segment"), recompute, schedule, recomputeRuns));
            }
            segments.put(name, list);
        }
        Traffic traffic = root.has("traffic") ? traffic(root.object("traffic", "the recorded traffic"), recompute)
                : null;
        SolverInfo solver = root.has("solver") ? solver(root.object("solver", "the solver information")) : null;
        return new Plan(graph, setting, budget, schedule, segments, traffic, solver);
    }

    private static Segment segment(JsonFields s, boolean recompute, Schedule schedule, boolean[] recomputeRuns) {
        s.rejectUnknown(SEGMENT_FIELDS);
        int start = s.intValue("start", "a timestep (an integer)");
        int end = s.intValue("end", "a timestep (an integer)");
        long offset = s.bytes("offset", "an integer address in bytes");
        String origins = recompute ? "created, loaded or recomputed" : "created or loaded";
        String originText = s.string("origin", origins);
        Origin origin = Origin.fromFileName(originText);
        if (origin == Origin.RECOMPUTED && !recompute) {
            throw s.error("origin", "origin 'recomputed' needs " + FORMAT_2 + "; a " + FORMAT_1 + " segment is "
                    + origins);
        }
        if (origin == null) {
            throw s.error("origin", "unknown origin '" + originText + "'; expected " + origins);
        }
        if (origin == Origin.RECOMPUTED && (start < 0 || start >= recomputeRuns.length || !recomputeRuns[start])) {
            throw s.error("start", "a recomputed segment starts at a recompute, a later run of an operator; "
                    + (start < 0 || start >= recomputeRuns.length
                    ? "timestep " + start + " is outside the schedule (0.." + (recomputeRuns.length - 1) + ")"
                    : "at timestep " + start + " '" + schedule.operators().get(start) + "' runs for the first time"));
        }
        return new Segment(start, end, offset, origin);
    }

    private static Traffic traffic(JsonFields t, boolean recompute) {
        if (!recompute) {
            for (String field : TRAFFIC_FIELDS_2.subList(TRAFFIC_FIELDS.size(), TRAFFIC_FIELDS_2.size())) {
                if (t.has(field)) {
                    throw t.error(field, "field '" + field + "' needs " + FORMAT_2 + "; a " + FORMAT_1
                            + " traffic has " + String.join(", ", TRAFFIC_FIELDS));
                }
            }
        }
        t.rejectUnknown(recompute ? TRAFFIC_FIELDS_2 : TRAFFIC_FIELDS);
        String bytes = "an integer number of bytes";
        Traffic traffic = new Traffic(t.longValue("compulsory", bytes), t.longValue("nonCompulsory", bytes),
                t.longValue("loads", bytes), t.longValue("spills", bytes));
        if (!recompute) {
            return traffic;
        }
        return new Traffic(traffic.compulsory(), traffic.nonCompulsory(), traffic.loads(), traffic.spills(),
                t.longValue("recomputes", "an integer number of runs"),
                t.longValue("recomputeCost", "an integer sum of operator costs"));
    }

    private static SolverInfo solver(JsonFields s) {
        s.rejectUnknown(SOLVER_FIELDS);
        String name = s.string("name", "the planner's name");
        String statusText = s.string("status", "one of " + STATUSES);
        SolveStatus status = Arrays.stream(SolveStatus.values()).filter(v -> v.name().equals(statusText))
                .findFirst().orElseThrow(() -> s.error("status", "unknown status '" + statusText + "'; expected one of "
                        + STATUSES));
        double seconds = s.doubleValue("seconds", "a number of seconds");
        Long bound = s.has("bound") ? s.longValue("bound", "an integer bound on the objective") : null;
        return new SolverInfo(name, status, seconds, bound);
    }
}
