package dev.memplan.cli;

import dev.memplan.sweeps.BudgetChoice;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.PipelineReport;
import dev.memplan.decomposition.DncResult;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.model.Graph;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code memplan bench dnc}: divide and conquer (issue 13) on graphs x budgets with a free schedule: the best
 * starting plan's traffic, the fixed-schedule optima it starts from (FS(default), FS(MPMF)), what each stage reaches (spill at cut, state
 * handed over, fixed-schedule optimum of the stitched order), the final traffic against the best FS optimum, the
 * forced lower bound and gap, the wall time of the whole case (starts included) and the peak heap. The minimum-peak
 * order (for M_H, M_P and FS(MPMF)) is computed once per graph, outside the case's limit, like the paper's HMCOS
 * orders. Rows are printed and the CSV rewritten as they finish.
 */
@Command(name = "dnc", mixinStandardHelpOptions = true,
        description = {"Divide and conquer on graphs x budgets (free schedule): FS(default), FS(MPMF), each stage,",
            "final traffic, bound, gap, time, peak heap; CSV written as rows finish."})
final class BenchDnc implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--graphs", split = ",", paramLabel = "G1,...", defaultValue = "nasnet,pnasnet,amoebanet,darts",
            description = "graphs: zoo names, files or gen:... (default: ${DEFAULT-VALUE})")
    List<String> graphs;

    @Option(names = "--budgets", split = ",", defaultValue = "M_R,M_H,M_P", paramLabel = "B1,...",
            description = "budgets (default: ${DEFAULT-VALUE})")
    List<String> budgets;

    @Option(names = "--setting", defaultValue = "activations", paramLabel = "activations|all",
            description = "tensor setting (default: ${DEFAULT-VALUE})")
    String setting;

    @Option(names = "--max-part", paramLabel = "N", defaultValue = "" + DivideAndConquer.DEFAULT_MAX_PART,
            description = "most operators per part (default: ${DEFAULT-VALUE})")
    int maxPart;

    @Option(names = "--large-beam", paramLabel = "W", defaultValue = "256",
            description = {"minimum-peak beam width (for M_P, M_H) on graphs above "
                + DivideAndConquer.WHOLE_GRAPH_LIMIT + " operators; the default 4,096", "takes minutes at 5,000 "
                + "operators (default: ${DEFAULT-VALUE})"})
    int largeBeam;

    @Mixin
    BenchCsv csvOption;

    @Mixin
    SolverOptions solverOptions;

    @Override
    public Integer call() {
        Path csv = csvOption.checked(graphs);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (maxPart < 1 || largeBeam < 1) {
            throw new UserException("--max-part and --large-beam must be >= 1, got " + maxPart + " and " + largeBeam);
        }
        TensorSetting s = Inputs.setting(setting);
        String[] header = {"graph", "operators", "budget", "bytes", "parts", "best start", "FS(default)", "FS(MPMF)", "spill at cut",
            "handover", "stitched order", "dnc", "vs best FS", "bound", "gap", "seconds", "peak heap MB", "plan from"};
        Table table = new Table(header);
        out.println(String.join("  ", header));
        for (String name : graphs) {
            Graph full = Inputs.graph(name);
            Graph g = full.withSetting(s);
            // Above the whole-graph limit a narrower beam: M_P (hence M_H) is then a best-known value either way.
            MinimumPeakScheduler mpmf = new MinimumPeakScheduler(g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT
                    ? MinimumPeakScheduler.DEFAULT_BEAM : largeBeam, solverOptions.backend());
            for (String b : budgets) {
                err.println(name + " " + b + " ...");
                err.flush();
                BudgetChoice chosen = BudgetChoice.resolve(b, g, s, mpmf, solverOptions.limits());
                // The minimum-peak order outside the case's clock (the scheduler remembers it per graph).
                if (g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT) {
                    mpmf.schedule(g, solverOptions.limits());
                }
                resetPeaks();
                long began = System.nanoTime();
                CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(
                        solverOptions.cosma(CosmaObjective.TRAFFIC, null, null), mpmf).withMaxPart(maxPart)
                        .withDecompose(CosmaPipeline.Decompose.ALWAYS);
                // Divide and conquer from the schemes it makes itself (the table's best start), nothing given.
                CosmaPipeline.Outcome o = new CosmaPipeline(settings, new Heartbeat(err)).run(full, s, chosen.bytes(),
                        solverOptions.limits(), List.of());
                double seconds = (System.nanoTime() - began) / 1e9;
                DncResult r = o.dnc();
                PlanChecker.requireValid(g, r.plan(), "divide and conquer");
                Long bestFs = min(o.fsDefault(), o.fsMpmf());
                table.row(g.name(), Integer.toString(g.operatorCount()), chosen.name(), Long.toString(chosen.bytes()),
                        Integer.toString(r.partition().size()), PipelineReport.orDash(r.start()), PipelineReport.fixedStart(o.fsDefault()),
                        PipelineReport.fixedStart(o.fsMpmf()),
                        PipelineReport.orDash(r.spillAtCut()), PipelineReport.orDash(r.handover()), PipelineReport.orDash(r.polished()),
                        r.traffic() + " " + r.status(), bestFs == null ? "-" : CompareCommand.reduction(r.traffic(), bestFs),
                        r.bound() == null ? "-" : Long.toString(r.bound()),
                        PipelineReport.gap(r.gap()),
                        String.format(Locale.ROOT, "%.1f", seconds), Long.toString(peakHeapMb()), r.source());
                out.println(String.join("  ", table.lastRow()));
                out.flush();
                table.writeCsv(csv);
            }
        }
        out.println();
        table.print(out);
        out.println("every plan checked: VALID; wrote " + csv + "; process peak RSS " + peakRssMb() + " MB");
        return 0;
    }

    private static Long min(CosmaResult a, CosmaResult b) {
        Long best = null;
        for (CosmaResult r : new CosmaResult[] {a, b}) {
            if (r != null && r.objective() != null && (best == null || r.objective() < best)) {
                best = r.objective();
            }
        }
        return best;
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

    /** The process's peak resident set (VmHWM, Linux), native memory included; -1 elsewhere. */
    private static long peakRssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
