package dev.memplan.sweeps.bench;

import dev.memplan.datasets.RandomGraphs;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Lifetimes;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Timeline;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How the plan checker's time grows with plan size: seeded layered graphs, each with its no-spill plan at
 * disjoint addresses (every segment as long as it can be, so many are live at once), checked several times; the
 * median time per segment should stay flat if the checker is linear-ish.
 */
public final class CheckerBench {
    public static final String[] HEADER = {"operators", "tensors", "segments", "max live", "median ms", "ns/segment",
        "valid"};

    /**
     * Operator counts, the window (operators read tensors of the last {@code window} operators), timed runs per
     * size and the graphs' seed.
     */
    public record Spec(List<Integer> sizes, int window, int repeats, long seed) {
        public Spec {
            Bounds.check(repeats, 1, Bounds.MAX_REPEATS, "--repeats", "");
            Bounds.check(window, 1, 1_000_000, "--window", "");
            sizes = Bounds.each(sizes, 1, 1_000_000, "--sizes", "operator counts ");
        }
    }

    private CheckerBench() {
    }

    /** Hands a row per size to {@code rows}. */
    public static void run(Spec spec, Consumer<String[]> rows) {
        for (int size : spec.sizes()) {
            Graph g = RandomGraphs.layered(spec.seed(), size, 3, spec.window(), 4096, true);
            Plan plan = disjointNoSpillPlan(g);
            CheckReport report = PlanChecker.checkAfresh(g, plan);
            long[] nanos = new long[spec.repeats()];
            for (int r = 0; r < spec.repeats(); r++) {
                long t0 = System.nanoTime();
                report = PlanChecker.checkAfresh(g, plan);
                nanos[r] = System.nanoTime() - t0;
            }
            Arrays.sort(nanos);
            long median = nanos[spec.repeats() / 2];
            rows.accept(new String[] {Integer.toString(size), Integer.toString(g.tensorCount()),
                Integer.toString(plan.segmentCount()), Integer.toString(maxLive(g, plan)),
                String.format("%.1f", median / 1e6), String.format("%.0f", median / (double) plan.segmentCount()),
                report.valid() ? "yes" : "NO"});
        }
    }

    private static Plan disjointNoSpillPlan(Graph g) {
        Schedule order = Schedule.defaultOrder(g);
        Lifetimes life = Lifetimes.of(g, order);
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        long next = 0;
        for (int a = 0; a < g.tensorCount(); a++) {
            if (life.first(a) >= 0) {
                Origin origin = g.isHost(a) ? Origin.LOADED : Origin.CREATED;
                segments.put(g.tensor(a).name(), List.of(new Segment(life.first(a), life.last(a), next, origin)));
                next += g.size(a);
            }
        }
        return new Plan(g.name(), TensorSetting.ALL, next, order, segments, null, null);
    }

    private static int maxLive(Graph g, Plan plan) {
        List<Segment> all = plan.segments().values().stream().flatMap(List::stream).toList();
        long[] ones = new long[all.size()];
        Arrays.fill(ones, 1);
        return (int) Timeline.peak(g.operatorCount(), all.stream().mapToInt(Segment::start).toArray(),
                all.stream().mapToInt(Segment::end).toArray(), ones);
    }
}
