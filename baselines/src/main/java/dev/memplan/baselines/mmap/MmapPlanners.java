package dev.memplan.baselines.mmap;

import dev.memplan.formulations.mmap.MmapCpSat;
import dev.memplan.model.Limits;
import dev.memplan.model.Shares;
import dev.memplan.model.mmap.Action;
import dev.memplan.model.mmap.MappingPlanner;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MmapInstance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;
import java.util.function.DoubleSupplier;

/**
 * The planners of the two-level memory mapping problem by name, and their comparison on one instance: the table of
 * {@code memplan mmap compare} and {@code memplan bench mmap}.
 */
public final class MmapPlanners {
    public static final List<String> NAMES = List.of("exact", "greedy", "mcts", "random");
    public static final String[] HEADER = {"instance", "buffers", "planner", "status", "reward", "bound", "% of bound",
        "seconds", "note"};

    private MmapPlanners() {
    }

    /**
     * The planner of that name; MCTS (alone or as a start of the exact program) plays {@code simulations} per move.
     *
     * @throws IllegalArgumentException naming the planners there are when there is none of that name
     */
    public static MappingPlanner byName(String name, int simulations) {
        return switch (name) {
            case "exact" -> new MmapCpSat(new BestMapping(List.of(new GreedyMapping(), new MctsPlay(simulations, 16, 1.0))));
            case "greedy" -> new GreedyMapping();
            case "mcts" -> new MctsPlay(simulations, 16, 1.0);
            case "random" -> new RandomPlay();
            default -> throw new IllegalArgumentException("unknown planner '" + name + "': use " + String.join(", ", NAMES));
        };
    }

    /** The instance in one line: name, buffers, instructions, capacity, the benefit of all buffers that fit. */
    public static String describe(MmapInstance in) {
        return in.name() + " (" + in.size() + " buffers, " + in.instructions() + " instructions, capacity "
                + in.capacity() + " bytes, benefit of all buffers that fit " + in.benefitBound() + ")";
    }

    /**
     * One planner's result as (label, value) rows ({@code memplan mmap solve}): instance, planner and status (with
     * {@code cut}, what the wall clock cut under a work limit); then, when a mapping was found, its reward, bound and
     * gap, actions, that it was checked, seconds, the work used ({@code work}, unless null) and the note.
     */
    public static List<String[]> report(MmapInstance in, MappingResult r, String cut, String work) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"instance", describe(in)});
        rows.add(new String[] {"planner", r.planner()});
        rows.add(new String[] {"status", r.status() + cut});
        if (r.mapping() == null) {
            return rows;
        }
        rows.add(new String[] {"reward", Long.toString(r.reward())});
        rows.add(new String[] {"bound", r.bound() < 0 ? "- (a heuristic has none)" : r.bound() + " (gap "
                + percent(r.gap()) + ")"});
        int[] counts = r.mapping().actionCounts();
        rows.add(new String[] {"actions", "copy " + counts[Action.COPY.ordinal()] + ", nocopy "
                + counts[Action.NOCOPY.ordinal()] + ", drop " + counts[Action.DROP.ordinal()]});
        rows.add(new String[] {"checked", "valid"});
        rows.add(new String[] {"time", String.format(Locale.ROOT, "%.2f s", r.seconds())});
        if (work != null) {
            rows.add(new String[] {"work", work});
        }
        if (!r.note().isEmpty()) {
            rows.add(new String[] {"note", r.note()});
        }
        return rows;
    }

    /** A fraction as a percentage with two decimals, "-" for NaN. */
    public static String percent(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * x);
    }

    /**
     * Runs the planners on one instance: the fast players (greedy, random) first, then MCTS with a share of what is
     * left ({@link Shares#MMAP_MCTS_BEFORE_EXACT_DIVISOR}) and the exact program with the rest, starting from the
     * best mapping found so far. {@code left} says what is left of the run (seconds, or work units when
     * {@code units}), {@code limits} makes a planner's limits of that much; {@code progress} hears which planner
     * starts. Returns a row per planner ({@link #HEADER}), each reward against the best bound of the run (the exact
     * program's, or the benefit of every buffer that fits).
     */
    public static List<String[]> compare(MmapInstance in, List<String> names, int simulations, DoubleSupplier left,
            DoubleFunction<Limits> limits, boolean units, Consumer<String> progress) {
        List<String> order = new ArrayList<>();
        names.stream().filter(n -> !n.equals("mcts") && !n.equals("exact")).forEach(order::add);
        names.stream().filter(n -> n.equals("mcts") || n.equals("exact")).forEach(order::add);
        List<MappingResult> results = new ArrayList<>();
        long bound = in.benefitBound();
        for (String name : order) {
            // The exact program starts from the best mapping the players of this run found.
            MappingPlanner p = name.equals("exact") && !results.isEmpty()
                    ? new MmapCpSat(bestOf(results)) : byName(name, simulations);
            double now = left.getAsDouble();
            double share = name.equals("mcts") && order.contains("exact") ? now / Shares.MMAP_MCTS_BEFORE_EXACT_DIVISOR
                    : now;
            progress.accept("mmap: " + p.name() + " on " + in.name() + " (" + String.format(Locale.ROOT, "%.1f", share)
                    + (units ? " units" : " s") + ") ...");
            MappingResult r = p.plan(in, limits.apply(Math.max(0.001, share)));
            results.add(r);
            if (r.bound() >= 0) {
                bound = Math.min(bound, r.bound());
            }
        }
        List<String[]> rows = new ArrayList<>();
        for (MappingResult r : results) {
            rows.add(new String[] {in.name(), Integer.toString(in.size()), r.planner(), r.status().name(),
                r.mapping() == null ? "-" : Long.toString(r.reward()), Long.toString(bound),
                r.mapping() == null ? "-" : percent(bound == 0 ? 1.0 : r.reward() / (double) bound),
                String.format(Locale.ROOT, "%.2f", r.seconds()), r.note()});
        }
        return rows;
    }

    /** A planner that returns the best of these (checked) results' mappings. */
    private static MappingPlanner bestOf(List<MappingResult> results) {
        MappingResult best = results.stream().filter(r -> r.mapping() != null)
                .max(Comparator.comparingLong(MappingResult::reward)).orElseThrow();
        return new MappingPlanner() {
            @Override
            public String name() {
                return best.planner();
            }

            @Override
            public MappingResult plan(MmapInstance instance, Limits limits) {
                return best;
            }
        };
    }
}
