package dev.memplan.cli;

import dev.memplan.model.LimitValues;
import dev.memplan.baselines.allocation.Allocators;
import dev.memplan.model.Allocation;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.io.MiniMallocCsv;
import dev.memplan.model.LoadBound;
import dev.memplan.baselines.allocation.Portfolio;
import dev.memplan.datasets.GeneratedTraces;
import dev.memplan.model.ClockGuard;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
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
        if (!Allocators.NAMES.contains(allocator)) {
            throw new UserException("unknown allocator '" + allocator + "'; allocators: " + String.join(", ", Allocators.NAMES));
        }
        // Every option before the file is read: a mistyped value should not wait for a large CSV.
        java.time.Duration wallLimit = limit.wallLimit();
        int threads = limit.threads();
        if (limit.workUnits() != null && allocator.equals("ilp")) {
            throw new UserException("--work-limit does not work with --allocator ilp: SCIP reports no deterministic work"
                    + " memplan can count; use --allocator cpsat or minimalloc, or --time-limit");
        }
        if (capacity != null && capacity <= 0) {
            throw new UserException("--capacity must be positive, got " + capacity);
        }
        if (minimize && allocator.equals("telamalloc")) {
            throw new UserException("--allocator telamalloc answers feasibility only (does a packing fit the capacity?);"
                    + " for --minimize use auto, minimalloc, ilp, cpsat or a heuristic");
        }
        // The time limit counts from the command's start (the JVM's): reading or generating the buffers is in it.
        Limits limits = new Limits(threads, 0.0, 0L, limit.commandBudget(), null);
        BufferSet buffers;
        try (ClockGuard guard = ClockGuard.until(limits.budget())) {
            buffers = Inputs.buffers(input);
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
        Allocation a;
        if (allocator.equals(Portfolio.NAME)) {
            Portfolio.Outcome outcome = minimize ? Portfolio.minimize(buffers, limits) : Portfolio.allocate(buffers, cap, limits);
            for (String line : outcome.log()) {
                o.println("  " + line);
            }
            a = outcome.allocation();
        } else {
            a = minimize ? Allocators.minimize(allocator, buffers, limits)
                    : Allocators.byName(allocator).allocate(buffers, cap, limits);
        }
        String time = String.format(Locale.ROOT, "%.3f s", a.seconds());
        if (a.solved()) {
            BufferChecker.requireValid(a.placement(), minimize ? a.placement().height() : cap, allocator);
            String what = minimize ? (a.status() == SolveStatus.OPTIMAL ? "minimum height (proven)"
                    : a.status() == SolveStatus.HEURISTIC ? "height reached (heuristic)" : "best height found (not proven)")
                    : "solved";
            long h = a.placement().height();
            String gap = bound > 0 ? String.format(Locale.ROOT, ", %.6f L (gap %.4f%%)", (double) h / bound,
                    100.0 * (h - bound) / h) : "";
            o.println(what + ": height " + h + gap + ", time " + time + ", status " + a.status() + LimitValues.cut(limits.budget()));
            if (a.note() != null) {
                o.println("note: " + a.note());
            }
            workLine(o, limits);
            if (out != null) {
                Outputs.write(out, MiniMallocCsv.toCsv(a.placement()), out());
                if (!Outputs.isStdout(out)) {
                    o.println("wrote " + out);
                }
            }
            return ExitCode.OK.code();
        }
        if (a.status() == SolveStatus.INFEASIBLE) {
            o.println("infeasible (proven): no packing fits in " + cap + " bytes" + (a.note() != null ? " (" + a.note() + ")" : "") + "; time " + time);
            return ExitCode.NO.code();
        }
        // Say what happened: a heuristic that stops after 0.5 s did not search for the whole time limit.
        String why = a.note() != null ? a.note()
                : wallLimit != null && a.seconds() >= 0.9 * wallLimit.toNanos() / 1e9
                        ? "no solution found within the time limit of " + limit.timeLimit + " s" : "no solution found";
        o.println("gave up after " + time + ": " + why + " (not proven infeasible)" + LimitValues.cut(limits.budget()));
        workLine(o, limits);
        return ExitCode.NOT_FOUND.code();
    }

    /** Under a work limit: the work used, and whether the clock cut it short (then the result is the machine's). */
    private void workLine(PrintWriter o, Limits limits) {
        if (limits.workMode()) {
            o.println("work: " + LimitValues.workUsed(limits.budget(), limit.workLimit));
        }
    }
}
