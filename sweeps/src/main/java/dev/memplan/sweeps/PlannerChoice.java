package dev.memplan.sweeps;

import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * One planner of a sweep: a comparison scheme ({@code SCHEDULER/POLICY/ALLOCATOR}, or a recompute scheme
 * {@code SCHEDULER/RECOMPUTE/POLICY/ALLOCATOR}), COSMA with its options
 * ({@code schedule} free|default|mpmf, {@code encoding} decoupled|joint, {@code without} techniques, {@code start}
 * schemes|jit), or a fixed-schedule allocator run on MiniMalloc CSV buffers.
 *
 * @param options COSMA's options that differ from the defaults, sorted by key (so equal choices have equal labels)
 */
public record PlannerChoice(Kind kind, String name, Map<String, String> options) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** What a planner runs on and what it produces. */
    public enum Kind {
        /** a comparison scheme on a graph: a plan */
        SCHEME,
        /** the COSMA program on a graph: a plan */
        COSMA,
        /** a fixed-schedule allocator on buffers: a placement */
        ALLOCATOR
    }

    /** COSMA's encodings: the decoupled sequence of programs (the default), or the joint big-M program alone. */
    public enum Encoding {
        DECOUPLED, JOINT;

        /** The encoding as the command line and a spec write it: lower case. */
        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The encoding as the command line and a spec write it, trimmed, any case. */
        public static Encoding parse(String text) {
            return dev.memplan.model.EnumNames.parse(values(), Object::toString, text, "encoding");
        }
    }

    /**
     * COSMA's options with a fixed set of values, the default first; {@code without} (techniques, any of
     * {@link dev.memplan.formulations.cosma.Technique}) is the other option. Spec errors list them from here.
     */
    static final Map<String, List<String>> COSMA_CHOICES = choices();

    private static Map<String, List<String>> choices() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("schedule", List.of("free", "default", "mpmf"));
        m.put("encoding", java.util.Arrays.stream(Encoding.values()).map(Encoding::toString).toList());
        m.put("start", List.of("schemes", "jit"));
        m.put("decompose", List.of("auto", "none"));
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * The spec's planner group {@code recompute}: the recompute baselines of
     * {@link dev.memplan.baselines.replacement.Schemes#recompute} on a training graph, in its order.
     */
    static final List<String> RECOMPUTE = List.of("default/checkpoint-sqrt/belady/tflite",
            "default/checkpoint-sqrt/greedy/tflite", "default/dtr/belady/tflite", "default/dtr/greedy/tflite");

    public PlannerChoice {
        options = Map.copyOf(new TreeMap<>(options));
    }

    /**
     * Whether this is a recompute scheme ({@code SCHEDULER/RECOMPUTE/POLICY/ALLOCATOR},
     * {@link dev.memplan.baselines.replacement.Schemes#recomputing}), which runs under a recompute weight.
     */
    public boolean recomputes() {
        return kind == Kind.SCHEME && name.split("/", -1).length == 4;
    }

    /**
     * The planner's name in results: the scheme or allocator name, {@code cosma}, or {@code cosma[k=v,...]} with
     * the options that differ from the defaults.
     */
    public String label() {
        if (kind != Kind.COSMA || options.isEmpty()) {
            return name;
        }
        StringJoiner j = new StringJoiner(",", name + "[", "]");
        new TreeMap<>(options).forEach((k, v) -> j.add(k + "=" + v));
        return j.toString();
    }

    /** A scheme ({@code SCHEDULER/POLICY/ALLOCATOR}) by name. */
    public static PlannerChoice scheme(String name) {
        return new PlannerChoice(Kind.SCHEME, name, Map.of());
    }

    /**
     * COSMA with these options (as a spec writes them: {@code schedule}, {@code encoding}, {@code start},
     * {@code decompose}, and the techniques switched off); the defaults are dropped, so equal choices are equal.
     */
    public static PlannerChoice cosma(Map<String, String> options, java.util.Set<Technique> without) {
        Map<String, String> kept = new TreeMap<>();
        options.forEach((k, v) -> {
            if (!COSMA_CHOICES.containsKey(k)) {
                throw new IllegalArgumentException("unknown COSMA option '" + k + "'");
            }
            if (!v.equals(COSMA_CHOICES.get(k).get(0))) {
                kept.put(k, v);
            }
        });
        if (!without.isEmpty()) {
            kept.put("without", String.join("+", without.stream().map(Technique::id).sorted().toList()));
        }
        return new PlannerChoice(Kind.COSMA, "cosma", kept);
    }

    /** As a spec's {@code planners} entry: the name, or COSMA's map with its options. */
    Object specEntry() {
        if (kind != Kind.COSMA) {
            return name;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        options.forEach((k, v) -> m.put(k, k.equals("without") ? List.of(v.split("\\+")) : v));
        return m;
    }

    /**
     * COSMA's solver options for this choice (its encoding and techniques, MiniMalloc packing the decoupled step):
     * what solve, compare and a sweep case run alike.
     *
     * @param schedule the fixed schedule, null for a free one
     * @param start a starting plan, null for none
     */
    public CosmaSolver.Options cosmaOptions(CosmaObjective objective, Schedule schedule, Backend backend, Plan start) {
        return new CosmaSolver.Options(objective, schedule, backend, start, option("encoding").equals(Encoding.DECOUPLED.toString()),
                new MiniMallocAllocator(), techniquesOff());
    }

    /** COSMA's techniques switched off ({@code without}). */
    java.util.Set<Technique> techniquesOff() {
        java.util.Set<Technique> off = java.util.EnumSet.noneOf(Technique.class);
        String ids = option("without");
        for (String id : ids.isEmpty() ? List.<String>of() : List.of(ids.split("\\+"))) {
            off.add(Technique.parse(id));
        }
        return off;
    }

    /** An option's value, or its default. */
    String option(String key) {
        return options.getOrDefault(key, key.equals("without") ? "" : COSMA_CHOICES.get(key).get(0));
    }
}
