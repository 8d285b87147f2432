package dev.memplan.cli;

import dev.memplan.model.BufferSet;
import dev.memplan.model.Graph;
import dev.memplan.model.Schedule;
import dev.memplan.model.io.MiniMallocCsv;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code memplan trace}: a graph run in an order, as the buffer list a fixed-schedule allocator packs (one
 * buffer per tensor, live from the step it is made or first used to its last use), or a generated training-step
 * trace, written as MiniMalloc's CSV.
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = {"Writes the buffers of a graph run in an order as MiniMalloc's CSV (id,lower,upper,size,alignment):",
            "one buffer per tensor of the setting, live over [first step, last use + 1), so that any allocator, here",
            "or MiniMalloc's own program, can pack it. SOURCE is a graph (file, zoo or gen:layered/gen:cells) or a",
            "generated trace of exactly N buffers: gen:trace:N[:SEED] (a training step) or gen:heap:N[:SEED] (thousands",
            "of buffers live at once)."})
final class TraceCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "SOURCE", description = "a graph, or gen:trace:N[:SEED] or gen:heap:N[:SEED]")
    String source;

    @Option(names = "--schedule", paramLabel = "default|FILE",
            description = "the order: the default order (default), or a file (a plan JSON, or one operator name per line)")
    String schedule;

    @picocli.CommandLine.Mixin
    SettingOption setting;

    @Option(names = "--out", required = true, paramLabel = "OUT.csv", description = "where to write the CSV ('-': standard output)")
    Path out;

    @Override
    public Integer call() {
        Outputs.check(out, "--out", true, source, schedule);
        BufferSet buffers;
        String what;
        if (dev.memplan.datasets.GeneratedTraces.isTraceName(source) && !java.nio.file.Files.exists(Path.of(source))) {
            if (schedule != null || setting.given()) {
                throw new UserException("--schedule and --setting apply to a graph, not to the generated trace " + source);
            }
            buffers = UserException.of(() -> dev.memplan.datasets.GeneratedTraces.read(source));
            what = source;
        } else {
            dev.memplan.model.TensorSetting ts = setting.or(dev.memplan.model.TensorSetting.ACTIVATIONS);
            Graph g = Inputs.graph(source).withSetting(ts);
            Schedule order = schedule == null ? Schedule.defaultOrder(g) : UserException.of(() -> dev.memplan.model.io.OperatorLists.schedule(g, schedule));
            buffers = dev.memplan.datasets.ScheduleTrace.of(g, order);
            what = "graph " + g.name() + " (" + ts.fileName() + ", " + (schedule == null ? "default order" : schedule) + ")";
        }
        Outputs.write(out, MiniMallocCsv.toCsv(buffers), out());
        PrintWriter report = Outputs.report(out, spec.commandLine());
        if (!Outputs.isStdout(out)) {
            report.println(what + ": " + buffers.size() + " buffers, largest live total " + dev.memplan.model.LoadBound.of(buffers)
                    + " bytes; wrote " + out);
        }
        return ExitCode.OK.code();
    }
}
