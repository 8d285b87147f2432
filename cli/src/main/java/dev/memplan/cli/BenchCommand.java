package dev.memplan.cli;

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
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memplan bench ...}: reproducible benchmarks that print a table and write it as CSV. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Runs a benchmark; prints a table and writes a CSV.",
        subcommands = {BenchCommand.Checker.class, BenchFormulations.class, BenchCompare.class, BenchAllocators.class,
            BenchCosma.class, BenchDnc.class, BenchLimits.class, BenchImport.class, BenchMmap.class, BenchScheduler.class, BenchGaps.class})
final class BenchCommand extends CommandBase.Group {

    /**
     * How the plan checker's time grows with plan size: seeded layered graphs, each with its no-spill plan at
     * disjoint addresses (every segment as long as it can be, so many are live at once), checked several
     * times; the median time per segment should stay flat if the checker is linear-ish.
     */
    @Command(name = "checker", mixinStandardHelpOptions = true,
            description = "Times the plan checker on growing random plans (median of repeats).")
    static final class Checker extends CommandBase.Bench {
        @Option(names = "--sizes", split = ",", defaultValue = "1000,4000,16000,64000",
                description = "operator counts (default: ${DEFAULT-VALUE})")
        List<Integer> sizes;

        @Option(names = "--window", defaultValue = "50",
                description = "operators read tensors of the last WINDOW operators: more live tensors (default: ${DEFAULT-VALUE})")
        int window;

        @Option(names = "--repeats", defaultValue = "5", description = "timed runs per size (default: ${DEFAULT-VALUE})")
        int repeats;

        @Option(names = "--seed", defaultValue = "1", description = "random seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Override
        Integer run(Path csv, PrintWriter out) {
            if (repeats < 1) {
                throw new UserException("--repeats must be >= 1 (a median needs a run), got " + repeats);
            }
            if (window < 1) {
                throw new UserException("--window must be >= 1 (operators read tensors of the last WINDOW), got "
                        + window);
            }
            for (int size : sizes) {
                if (size < 1) {
                    throw new UserException("--sizes must be operator counts >= 1, got " + size);
                }
            }
            Table table = new Table("operators", "tensors", "segments", "max live", "median ms", "ns/segment", "valid");
            for (int size : sizes) {
                Graph g = RandomGraphs.layered(seed, size, 3, window, 4096, true);
                Plan plan = disjointNoSpillPlan(g);
                CheckReport report = PlanChecker.check(g, plan);
                long[] nanos = new long[repeats];
                for (int r = 0; r < repeats; r++) {
                    long t0 = System.nanoTime();
                    report = PlanChecker.check(g, plan);
                    nanos[r] = System.nanoTime() - t0;
                }
                Arrays.sort(nanos);
                long median = nanos[repeats / 2];
                table.row(Integer.toString(size), Integer.toString(g.tensorCount()),
                        Integer.toString(plan.segmentCount()), Integer.toString(maxLive(g, plan)),
                        String.format("%.1f", median / 1e6), String.format("%.0f", median / (double) plan.segmentCount()),
                        report.valid() ? "yes" : "NO");
                out.flush();
            }
            table.print(out);
            table.writeCsv(csv);
            out.println("wrote " + csv);
            return 0;
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
}
