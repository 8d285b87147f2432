package dev.memplan.cli;

import dev.memplan.model.Graph;
import dev.memplan.model.Placement;
import dev.memplan.model.Plan;
import dev.memplan.model.Violation;
import dev.memplan.model.io.AtomicFiles;
import dev.memplan.model.io.MiniMallocCsv;
import dev.memplan.sweeps.figures.FigureFile;
import dev.memplan.sweeps.figures.FinishedCase;
import dev.memplan.sweeps.figures.FrontFigure;
import dev.memplan.sweeps.figures.LayoutFigure;
import dev.memplan.sweeps.figures.ResultCells;
import dev.memplan.sweeps.figures.ResultsFile;
import dev.memplan.sweeps.figures.TimeToSolutionTable;
import dev.memplan.sweeps.figures.TrafficFigure;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memplan plot traffic|front|table|layout}: figures and tables from sweep results and from plans. */
@Command(name = "plot", mixinStandardHelpOptions = true,
        description = {"Figures (SVG or PNG, by the --out name) and tables from sweep results",
            "(the DuckDB database of 'memplan sweep' or its CSV export) and from plans."},
        subcommands = {PlotCommand.Traffic.class, PlotCommand.Front.class, PlotCommand.TableOfTimes.class,
            PlotCommand.Layout.class})
final class PlotCommand extends CommandBase.Group {

    /** Options that choose which results a figure or table shows. */
    static final class Selection {
        @Option(names = "--setting", paramLabel = "SETTING", split = ",",
                description = "only these tensor settings (activations, all)")
        List<String> settings;

        @Option(names = "--graphs", paramLabel = "GRAPH", split = ",",
                description = "only these networks, in this order (as named in the results)")
        List<String> graphs;

        @Option(names = "--planners", paramLabel = "PLANNER", split = ",",
                description = "only these planners, in this order (as named in the results)")
        List<String> planners;

        ResultCells cells(Path results) {
            return read(results, rows -> new ResultCells(rows, settings, graphs, planners));
        }
    }

    /** The results' rows made into {@code what}; a file that is missing or breaks its format is a user mistake. */
    static <T> T read(Path results, java.util.function.Function<List<FinishedCase>, T> what) {
        requireFile(results);
        try {
            return what.apply(ResultsFile.read(results));
        } catch (IllegalArgumentException e) {
            throw new UserException(results + ": " + e.getMessage());
        }
    }

    /** A command on sweep results: DB|CSV and the selection, declared once. */
    abstract static class OnResults extends CommandBase {
        @Parameters(index = "0", paramLabel = "DB|CSV", description = "sweep results: a DuckDB file, or a .csv export")
        Path results;

        @Mixin
        Selection selection;
    }

    /**
     * A figure of sweep results (traffic, front): DB|CSV, --out (by default NAME-COMMAND.svg beside the results),
     * --title and the selection, declared once; the figure is written and summed up in one line.
     */
    abstract static class ResultsFigure extends OnResults {
        @Option(names = "--out", paramLabel = "FILE.svg|FILE.png",
                description = "the figure (default: beside the results, NAME-${COMMAND-NAME}.svg)")
        Path out;

        @Option(names = "--title", paramLabel = "TEXT", description = "the figure's title")
        String title;

        @Override
        public final Integer call() {
            Path file = out != null ? out : FigureFile.beside(results, "-" + spec.name() + ".svg");
            Outputs.check(file, "--out", false, results.toString());
            imageFormat(file);
            Drawn drawn = read(results, this::figure);
            FigureFile.write(drawn.figure(), file);
            out().println("wrote " + file + " (" + drawn.summary() + ")");
            return ExitCode.OK.code();
        }

        /**
         * The figure of these rows and what it shows, in a few words; an {@link IllegalArgumentException} for a
         * selection they do not hold.
         */
        abstract Drawn figure(List<FinishedCase> rows);
    }

    /** A figure and what it shows. */
    record Drawn(FigureFile.Drawing figure, String summary) {
    }

    @Command(name = "traffic", mixinStandardHelpOptions = true,
            description = {"The COSMA paper's Fig. 3/4: non-compulsory traffic per planner (bars)",
                "per budget (groups) per network and setting (panels). Cells not proven",
                "optimal are marked: F feasible (with its gap), H heuristic, U unknown,",
                "I infeasible, E error. Zero traffic has no bar and is labelled 0 at the",
                "axis' foot (with --log, a decade below the least positive value)."})
    static final class Traffic extends ResultsFigure {
        @Option(names = "--log", description = "logarithmic traffic axes")
        boolean log;

        @Override
        Drawn figure(List<FinishedCase> rows) {
            TrafficFigure figure = new TrafficFigure(new ResultCells(rows, selection.settings, selection.graphs,
                    selection.planners), log, title != null ? title
                    : "Non-compulsory off-chip traffic (bytes" + (log ? ", log scale" : "") + ")");
            return new Drawn(figure, figure.summary());
        }
    }

    @Command(name = "front", mixinStandardHelpOptions = true,
            description = {"The trade-off of recomputation: non-compulsory traffic against recompute",
                "cost, a point per plan (one per recompute weight lambda of the sweep), a",
                "panel per network, setting and budget, and each panel's Pareto front (the",
                "plans nothing beats in both) as a dashed staircase labelled with its weights."})
    static final class Front extends ResultsFigure {
        @Option(names = "--budgets", paramLabel = "BUDGET", split = ",",
                description = "only these budgets (as named in the results: M_R, 0.25, ...)")
        List<String> budgets;

        @Override
        Drawn figure(List<FinishedCase> rows) {
            FrontFigure figure = new FrontFigure(rows, selection.settings, selection.graphs, budgets, selection.planners,
                    title != null ? title : "Non-compulsory traffic against recompute cost, across recompute weights");
            return new Drawn(figure, figure.summary());
        }
    }

    @Command(name = "table", mixinStandardHelpOptions = true,
            description = {"The COSMA paper's Table II: seconds to solution per network and setting",
                "(rows), planner and budget (columns), marked when not proven optimal:",
                "F feasible (with its gap), H heuristic, U unknown, I infeasible, E error;",
                "- not run. Printed, or written with --out."})
    static final class TableOfTimes extends OnResults {
        @Option(names = "--format", paramLabel = "markdown|latex", defaultValue = "markdown",
                description = "output format (default: ${DEFAULT-VALUE})")
        String format;

        @Option(names = "--out", paramLabel = "FILE", description = "write the table to FILE instead of printing it")
        Path out;

        @Override
        public Integer call() {
            TimeToSolutionTable.Format f = UserException.of(() -> TimeToSolutionTable.Format.parse(format));
            Outputs.check(out, "--out", false, results.toString());
            String text = TimeToSolutionTable.render(selection.cells(results), f);
            PrintWriter o = out();
            if (out == null) {
                o.print(text);
            } else {
                AtomicFiles.write(out, text);
                o.println("wrote " + out);
            }
            return ExitCode.OK.code();
        }
    }

    @Command(name = "layout", mixinStandardHelpOptions = true,
            description = {"The memory layout of a plan (GRAPH PLAN) or of a placement (BUFFERS.csv",
                "with an offset column, as 'memplan allocate --out' writes): address",
                "against time, a rectangle per segment or buffer, loads (green left edge)",
                "and spills (red right edge) marked, the budget or capacity a dashed line.",
                "The plan (placement) is checked first: an invalid one is not drawn, its",
                "violations are printed and the exit code is 1."})
    static final class Layout extends CommandBase {
        @Parameters(index = "0", paramLabel = "GRAPH|BUFFERS.csv",
                description = "graph (file, example, zoo or generated name), or a placement CSV")
        String first;

        @Parameters(index = "1", arity = "0..1", paramLabel = "PLAN", description = "plan file (memplan-plan/1)")
        Path plan;

        @picocli.CommandLine.Mixin
        SettingOption setting;

        @Option(names = "--capacity", paramLabel = "BYTES",
                description = "placement only: the capacity (default: the number in the name X.<capacity>.csv)")
        Long capacity;

        @Option(names = "--out", paramLabel = "FILE.svg|FILE.png",
                description = "the figure (default: beside the plan or CSV, NAME-layout.svg)")
        Path out;

        @Override
        public Integer call() {
            PrintWriter o = out();
            boolean placement = plan == null;
            if (placement && !first.toLowerCase(Locale.ROOT).endsWith(".csv")) {
                throw new UserException("give GRAPH PLAN for a plan, or a BUFFERS.csv placement; got only '" + first + "'");
            }
            if (!placement && capacity != null) {
                throw new UserException("--capacity is for placements (BUFFERS.csv); a plan carries its budget");
            }
            Path source = placement ? Path.of(first) : plan;
            Path file = out != null ? out : FigureFile.beside(source, "-layout.svg");
            Outputs.check(file, "--out", false, first, source.toString());
            imageFormat(file);
            requireFile(source);
            LayoutFigure figure;
            try {
                figure = placement ? placementFigure(source) : planFigure(o);
            } catch (LayoutFigure.InvalidLayoutException e) {
                o.println("INVALID: " + e.getMessage());
                for (Violation v : e.violations()) {
                    o.println("  " + v);
                }
                return ExitCode.NO.code();
            }
            FigureFile.write(figure, file);
            o.println("wrote " + file);
            return ExitCode.OK.code();
        }

        private LayoutFigure planFigure(PrintWriter o) {
            Graph g = Inputs.graph(first);
            Plan p = Inputs.plan(plan, g, setting, o, "drawing");
            return LayoutFigure.ofPlan(g, p);
        }

        private LayoutFigure placementFigure(Path csv) {
            Placement placement = MiniMallocCsv.readPlacement(csv);
            Long cap = capacity != null ? capacity : MiniMallocCsv.capacityFromFileName(csv.getFileName().toString());
            if (cap != null && cap <= 0) {
                throw new UserException("--capacity must be positive, got " + cap);
            }
            return LayoutFigure.ofPlacement(csv.getFileName().toString(), placement, cap);
        }
    }

    private static void requireFile(Path file) {
        String why = AtomicFiles.whyNotInput(file);
        if (why != null) {
            throw new UserException(why);
        }
    }

    private static void imageFormat(Path file) {
        UserException.of(() -> FigureFile.formatOf(file));
    }
}
