package dev.memplan.cli;

import dev.memplan.baselines.allocation.AllocationRun;
import dev.memplan.datasets.GeneratedTraces;
import dev.memplan.decomposition.Ticker;
import dev.memplan.model.Allocation;
import dev.memplan.model.BufferSet;
import dev.memplan.model.ClockGuard;
import dev.memplan.model.LoadBound;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.io.MiniMallocCsv;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memplan allocate}: packs a MiniMalloc CSV of buffers with one of the fixed-schedule allocators. */
@Command(name = "allocate", mixinStandardHelpOptions = true,
        description = {"Packs buffers (MiniMalloc's CSV: id,lower,upper,size[,alignment][,offset]) into a capacity, or",
            "with --minimize finds the least height. Prints solved / infeasible / gave up, time and height; --out",
            "writes the input with an offset column, rows in input order (what MiniMalloc writes)."})
final class AllocateCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "BUFFERS.csv",
            description = "buffers in MiniMalloc's CSV format, or a generated trace: gen:trace:N[:SEED] (a training step),"
                    + " gen:heap:N[:SEED] (thousands of buffers live at once; docs/graphs.md)")
    String input;

    @Option(names = "--capacity", paramLabel = "BYTES",
            description = "capacity (default: the number in the file name, as MiniMalloc's X.<capacity>.csv)")
    Long capacity;

    @Option(names = "--allocator", defaultValue = "auto",
            paramLabel = "auto|minimalloc|telamalloc|skyline|ilp|cpsat|tflite|greedy|bestfit",
            description = "allocator (default: ${DEFAULT-VALUE}: the fast heuristics, then MiniMalloc from the best of them)")
    String allocator;

    @Option(names = "--minimize", description = "find the least height instead of packing into the capacity")
    boolean minimize;

    /** --time-limit, --work-limit and --threads, declared once for every command that takes them. */
    @picocli.CommandLine.Mixin
    LimitOptions limit = new LimitOptions();

    @Option(names = "--out", paramLabel = "OUT.csv", description = "write the placement as CSV ('-': to standard output, the report to standard error)")
    Path out;

    @Option(names = "--report-peak-rss", hidden = true, description = "print the process's peak RSS at the end (for bench allocators --scale)")
    boolean reportPeakRss;

    @Override
    public Integer call() {
        try (Ticker ticker = new Ticker(err(), "reading the buffers")) {
            return allocate(ticker);
        } finally {
            if (reportPeakRss) {
                out().println("peak RSS " + dev.memplan.sweeps.bench.ChildRun.peakRssKb() + " KB");
            }
        }
    }

    private Integer allocate(Ticker ticker) {
        Path file = Path.of(input);
        Outputs.check(out, "--out", true, input);
        PrintWriter o = Outputs.report(out, spec.commandLine());
        // Every option before the file is read: a mistyped value should not wait for a large CSV.
        AllocationRun run = UserException.of(() -> AllocationRun.of(allocator, capacity, minimize, limit.timeLimit,
                limit.workLimit, limit.threads, Main.started()));
        BufferSet buffers;
        try (ClockGuard guard = ClockGuard.until(run.limits().budget())) {
            buffers = UserException.of(() -> GeneratedTraces.read(input));
        }
        Long cap = UserException.of(() -> buffers.packingCapacity(capacity, "--capacity", file.toString()));
        if (cap == null && !minimize) {
            throw new UserException(file + ": no capacity; give --capacity or name the file X.<capacity>.csv");
        }
        String name = GeneratedTraces.isTraceName(input) && !Files.exists(file) ? input
                : file.getFileName().toString();
        long bound = LoadBound.of(buffers);
        o.println(name + ": " + buffers.size() + " buffers" + (cap == null ? "" : ", capacity " + cap)
                + ", allocator " + allocator + (minimize ? " (minimise height)" : "") + ", lower bound L " + bound
                + " (largest live total)");
        o.flush();
        ticker.stage("allocating " + buffers.size() + " buffers with " + allocator);
        Allocation a = run.run(buffers, cap, line -> o.println("  " + line));
        o.println(run.verdict(a, cap, bound));
        if (a.solved() && a.note() != null) {
            o.println("note: " + a.note());
        }
        if (run.workUsed() != null && a.status() != SolveStatus.INFEASIBLE) {
            o.println("work: " + run.workUsed());
        }
        if (a.solved() && out != null) {
            Outputs.write(out, MiniMallocCsv.toCsv(a.placement()), out());
            if (!Outputs.isStdout(out)) {
                o.println("wrote " + out);
            }
        }
        return (a.solved() ? ExitCode.OK : a.status() == SolveStatus.INFEASIBLE ? ExitCode.NO : ExitCode.NOT_FOUND)
                .code();
    }
}
