package dev.memplan.baselines.replacement;

import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.baselines.scheduling.DefaultScheduler;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.scheduling.Scheduler;
import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Scheme names: {@code SCHEDULER/POLICY/ALLOCATOR} with schedulers {@code default}, {@code mpmf}, policies
 * {@code belady}, {@code greedy}, {@code lru} and online allocators {@code tflite}, {@code firstfit}, or
 * {@code minimalloc}: replacement on bytes alone, then the segments packed by MiniMalloc (to separate the traffic of
 * replacement from that of fragmentation). The paper's four schemes are {@link #PAPER}.
 *
 * <p>The recompute baselines ({@link #recompute}) are named {@code SCHEDULER/RECOMPUTE/POLICY/ALLOCATOR} with
 * {@code RECOMPUTE} {@code checkpoint-sqrt}, {@code checkpoint-K} (K >= 1) or {@code dtr} (see
 * {@link Recomputation}) and an online allocator; they are never in {@link #all()} and are built only for a
 * recompute weight, so that the spill-only comparisons stay as they are.
 */
public final class Schemes {
    /** The four schemes of the COSMA paper's evaluation. */
    public static final List<String> PAPER = List.of("default/belady/tflite", "default/greedy/tflite",
            "mpmf/belady/tflite", "mpmf/greedy/tflite");

    private Schemes() {
    }

    /** Every name this class understands. */
    public static List<String> all() {
        List<String> names = new ArrayList<>();
        for (String s : List.of("default", "mpmf")) {
            for (String p : List.of("belady", "greedy", "lru")) {
                for (AddressRule r : List.of(AddressRule.TFLITE, AddressRule.FIRST_FIT)) {
                    names.add(s + "/" + p + "/" + r.id());
                }
                names.add(s + "/" + p + "/minimalloc");
            }
        }
        return names;
    }

    /** The scheme of that name; the message of the exception lists what exists. */
    public static Scheme byName(String name) {
        return byName(name, new MinimumPeakScheduler());
    }

    /**
     * The schemes of those names; the {@code mpmf} ones share one minimum-peak scheduler, which remembers its
     * order per graph, so a comparison computes the order once instead of once per scheme.
     */
    public static List<Scheme> byNames(List<String> names) {
        return byNames(names, new MinimumPeakScheduler());
    }

    /**
     * The schemes of those names, the {@code mpmf} ones using {@code shared}: a caller that also needs M_P (the
     * same order's peak) passes its own scheduler, so the order is computed once for both.
     */
    public static List<Scheme> byNames(List<String> names, MinimumPeakScheduler shared) {
        List<Scheme> schemes = new ArrayList<>();
        for (String name : names) {
            schemes.add(byName(name, shared));
        }
        return schemes;
    }

    /**
     * The recompute baselines that apply to {@code graph} under weight {@code lambda} (bytes per cost unit), in
     * this order: on a training graph {@code default/checkpoint-sqrt/belady/tflite} and
     * {@code default/checkpoint-sqrt/greedy/tflite}, then on any graph {@code default/dtr/belady/tflite} and
     * {@code default/dtr/greedy/tflite}, then on a training graph the rungs of checkpointing by price that drop
     * something ({@link #cheap}).
     */
    public static List<Scheme> recompute(Graph graph, double lambda) {
        List<Scheme> schemes = new ArrayList<>();
        for (String r : List.of("checkpoint-sqrt", "dtr")) {
            for (String p : List.of("belady", "greedy")) {
                Scheme scheme = recomputing("default/" + r + "/" + p + "/tflite", lambda);
                if (scheme.recomputation().appliesTo(graph)) {
                    schemes.add(scheme);
                }
            }
        }
        schemes.addAll(cheap(graph, lambda, "default"));
        return schemes;
    }

    /**
     * The rungs of checkpointing by price ({@link Recomputation#cheap}) on a training graph: {@code
     * SCHEDULER/checkpoint-cheap-K/belady/tflite} for K = 1, 2, 4, 8 in turn, each only when it drops something and
     * not what the rung before dropped (a higher K drops a subset). Where recomputing is cheap the rung decides how
     * much is dropped, and which rung plans lowest differs: on lraspp_mobilenet_v3_large:train at M_H and lambda 2^-8
     * K = 4 drops enough for no traffic at a fifth of K = 1's recompute cost, and K = 8 too little (BENCHMARKS.md,
     * "Checkpointing by price"). None at lambda 1 on the zoo's convolution networks, where nothing is cheap enough.
     */
    public static List<Scheme> cheap(Graph graph, double lambda, String scheduler) {
        return cheap(graph, lambda, k -> recomputing(rungName(scheduler, k), lambda));
    }

    /**
     * The same rungs as {@link #cheap(Graph, double, String)} on any scheduler's order (e.g. a plan's own order,
     * {@link dev.memplan.baselines.scheduling.GivenOrderScheduler}), with {@code policy}'s spilling: {@code
     * SCHEDULER/checkpoint-cheap-K/POLICY/tflite}.
     */
    public static List<Scheme> cheap(Graph graph, double lambda, Scheduler scheduler, ReplacementPolicy policy) {
        return cheap(graph, lambda, k -> new Scheme(scheduler, policy, AddressRule.TFLITE,
                Recomputation.cheap(k, lambda)));
    }

    private static List<Scheme> cheap(Graph graph, double lambda, IntFunction<Scheme> rung) {
        List<Scheme> schemes = new ArrayList<>();
        BitSet before = null;
        for (int k : CHEAP_RUNGS) {
            Scheme scheme = rung.apply(k);
            BitSet drops = scheme.recomputation().cheapDrops(graph);
            if (!drops.isEmpty() && !drops.equals(before)) {
                schemes.add(scheme);
            }
            before = drops;
        }
        return schemes;
    }

    /** The rungs K of {@link #cheap}: what is dropped costs less than 1/K of its load to make again. */
    static final List<Integer> CHEAP_RUNGS = List.of(1, 2, 4, 8);

    /**
     * Every rung's name {@code SCHEDULER/checkpoint-cheap-K/belady/tflite}, K = 1, 2, 4, 8, whatever it drops on a
     * graph (a sweep names its planners before it loads a graph; a rung that drops nothing plans as keep-everything).
     */
    public static List<String> cheapRungs(String scheduler) {
        return CHEAP_RUNGS.stream().map(k -> rungName(scheduler, k)).toList();
    }

    private static String rungName(String scheduler, int k) {
        return scheduler + "/checkpoint-cheap-" + k + "/belady/tflite";
    }

    /**
     * The recompute baseline of that name ({@code SCHEDULER/RECOMPUTE/POLICY/ALLOCATOR}) under weight
     * {@code lambda}; the message of the exception says what exists.
     */
    public static Scheme recomputing(String name, double lambda) {
        String[] parts = name.split("/", -1);
        if (parts.length != 4 || !List.of("tflite", "firstfit").contains(parts[3])) {
            throw unknownRecompute(name);
        }
        Recomputation r;
        if (parts[1].equals("dtr")) {
            r = Recomputation.dtr(lambda);
        } else if (parts[1].matches("checkpoint-cheap-[1-9][0-9]{0,5}")) {
            r = Recomputation.cheap(Integer.parseInt(parts[1].substring("checkpoint-cheap-".length())), lambda);
        } else if (parts[1].equals("checkpoint-sqrt")) {
            r = Recomputation.checkpoint(0, lambda);
        } else if (parts[1].matches("checkpoint-[1-9][0-9]{0,5}")) {
            r = Recomputation.checkpoint(Integer.parseInt(parts[1].substring("checkpoint-".length())), lambda);
        } else {
            throw unknownRecompute(name);
        }
        Scheme spilling;
        try {
            spilling = byName(parts[0] + "/" + parts[2] + "/" + parts[3], new MinimumPeakScheduler());
        } catch (IllegalArgumentException e) {
            throw unknownRecompute(name);
        }
        return spilling.recomputing(r);
    }

    private static IllegalArgumentException unknownRecompute(String name) {
        return new IllegalArgumentException("unknown recompute scheme '" + name + "': a recompute scheme is "
                + "SCHEDULER/RECOMPUTE/POLICY/ALLOCATOR with SCHEDULER default|mpmf, RECOMPUTE "
                + "checkpoint-sqrt|checkpoint-K|checkpoint-cheap-K|dtr, POLICY belady|greedy|lru, ALLOCATOR "
                + "tflite|firstfit");
    }

    private static Scheme byName(String name, MinimumPeakScheduler mpmf) {
        String[] parts = name.split("/", -1);
        if (parts.length != 3) {
            throw unknown(name);
        }
        Scheduler scheduler = switch (parts[0]) {
            case "default" -> new DefaultScheduler();
            case "mpmf" -> mpmf;
            default -> throw unknown(name);
        };
        ReplacementPolicy policy = switch (parts[1]) {
            case "belady" -> new BeladyReplacement();
            case "greedy" -> new GreedyReplacement();
            case "lru" -> new LruReplacement();
            default -> throw unknown(name);
        };
        if (parts[2].equals("minimalloc")) {
            return new Scheme(scheduler, policy, new MiniMallocAllocator());
        }
        AddressRule rule = null;
        for (AddressRule r : List.of(AddressRule.TFLITE, AddressRule.FIRST_FIT)) {
            if (r.id().equals(parts[2])) {
                rule = r;
            }
        }
        if (rule == null) {
            throw unknown(name);
        }
        return new Scheme(scheduler, policy, rule);
    }

    private static IllegalArgumentException unknown(String name) {
        return new IllegalArgumentException("unknown scheme '" + name + "': a scheme is SCHEDULER/POLICY/ALLOCATOR with "
                + "SCHEDULER default|mpmf, POLICY belady|greedy|lru, ALLOCATOR tflite|firstfit|minimalloc");
    }
}
