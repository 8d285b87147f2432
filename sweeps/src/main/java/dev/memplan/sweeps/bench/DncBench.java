package dev.memplan.sweeps.bench;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.decomposition.DncResult;
import dev.memplan.decomposition.PipelineReport;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.sweeps.GraphSources;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Divide and conquer (issue 13) on graphs x budgets with a free schedule: the best starting plan's traffic, the
 * fixed-schedule optima it starts from (FS(default), FS(MPMF)), what each stage reaches (spill at cut, state handed
 * over, fixed-schedule optimum of the stitched order), the final traffic against the best FS optimum, the forced
 * lower bound and gap, the wall time of the whole case (starts included) and the peak heap. The minimum-peak order
 * (for M_H, M_P and FS(MPMF)) is computed once per graph, outside the case's limit, like the paper's HMCOS orders.
 */
public final class DncBench {
    /** The case, then the pipeline's figures as the solve report formats them, then the case's cost and source. */
    public static final String[] HEADER = Stream.of(List.of("graph", "operators", "budget", "bytes"),
            PipelineReport.DNC_COLUMNS, List.of("seconds", "peak heap MB", "plan from")).flatMap(List::stream)
            .toArray(String[]::new);

    /**
     * The graphs and budgets, the tensor setting, the most operators per part, the minimum-peak beam on graphs
     * above {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators, COSMA's options and back-end, and the limits of
     * each step (a fresh budget each call).
     */
    public record Spec(List<String> graphs, List<String> budgets, TensorSetting setting, int maxPart, int largeBeam,
                       CosmaSolver.Options cosma, Backend backend, Supplier<Limits> limits) {
        public Spec {
            Bounds.check(maxPart, 1, 1_000_000, "--max-part", "");
            Bounds.check(largeBeam, 1, Bounds.MAX_BEAM, "--large-beam", "");
            graphs = List.copyOf(graphs);
            budgets = List.copyOf(budgets);
        }
    }

    private DncBench() {
    }

    /**
     * Hands a row per graph and budget to {@code rows} (every plan checked); says on {@code err} which case starts
     * and gives the pipeline's progress to {@code progress}.
     */
    public static void run(Spec spec, Consumer<String[]> rows, PrintWriter err, Consumer<String> progress) {
        TensorSetting s = spec.setting();
        for (String name : spec.graphs()) {
            Graph full = GraphSources.graph(name);
            Graph g = full.withSetting(s);
            // Above the whole-graph limit a narrower beam: M_P (hence M_H) is then a best-known value either way.
            MinimumPeakScheduler mpmf = new MinimumPeakScheduler(g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT
                    ? MinimumPeakScheduler.DEFAULT_BEAM : spec.largeBeam(), spec.backend());
            for (String b : spec.budgets()) {
                err.println(name + " " + b + " ...");
                err.flush();
                BudgetChoice chosen = BudgetChoice.resolve(b, g, s, mpmf, spec.limits().get());
                // The minimum-peak order outside the case's clock (the scheduler remembers it per graph).
                if (g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT) {
                    mpmf.schedule(g, spec.limits().get());
                }
                resetPeaks();
                long began = System.nanoTime();
                CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(spec.cosma(), mpmf)
                        .withMaxPart(spec.maxPart()).withDecompose(CosmaPipeline.Decompose.ALWAYS);
                // Divide and conquer from the schemes it makes itself (the table's best start), nothing given.
                CosmaPipeline.Outcome o = new CosmaPipeline(settings, progress).run(full, s, chosen.bytes(),
                        spec.limits().get(), List.of());
                double seconds = (System.nanoTime() - began) / 1e9;
                DncResult r = o.dnc();
                PlanChecker.requireValid(g, r.plan(), "divide and conquer");
                List<String> row = new ArrayList<>(List.of(g.name(), Integer.toString(g.operatorCount()),
                        chosen.name(), Long.toString(chosen.bytes())));
                PipelineReport.dncColumns(o).forEach(c -> row.add(c.value()));
                row.addAll(List.of(String.format(Locale.ROOT, "%.1f", seconds), Long.toString(peakHeapMb()),
                        r.source()));
                rows.accept(row.toArray(String[]::new));
            }
        }
    }

    /** The process's peak resident set in MB (VmHWM, Linux), native memory included; -1 elsewhere. */
    public static long peakRssMb() {
        long kb = ChildRun.peakRssKb();
        return kb < 0 ? -1 : kb >> 10;
    }

    private static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
    }

    /** The sum of the heap pools' peak usage since the last reset (the JVM heap; native solver memory is not in it). */
    private static long peakHeapMb() {
        long bytes = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                bytes += pool.getPeakUsage().getUsed();
            }
        }
        return bytes >> 20;
    }
}
