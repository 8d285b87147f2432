package dev.memplan.cli;

import dev.memplan.decomposition.Heartbeat;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.SolveCase;
import dev.memplan.sweeps.bench.GapsBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench gaps}: each case's gap split into what its plan's own order leaves and what lies between
 * orders and the free bound ({@link GapsBench}); rows printed as they finish.
 */
@Command(name = "gaps", mixinStandardHelpOptions = true,
        description = {"Each case's gap split by the fixed-order bound of its plan's order: plan vs its order's bound,",
            "order's bound vs the free bound; CSV written as rows finish."})
final class BenchGaps extends CommandBase.PipelineBench {

    @Option(names = "--budgets", split = ",", defaultValue = "M_R,M_H", paramLabel = "B1,...",
            description = "budgets (default: ${DEFAULT-VALUE})")
    List<String> budgets;

    @Option(names = "--order-work", paramLabel = "UNITS", defaultValue = "10",
            description = {"work units of the integer program on each plan's order (no addresses), after its LP; 0: the",
                "LP alone (default: ${DEFAULT-VALUE})"})
    double orderWork;

    @Option(names = "--plans", paramLabel = "DIR",
            description = {"a folder of plans named GRAPH-BUDGET.plan.json: a case whose plan is there is not solved",
                "again (its free bound is the plan's); the others are solved and their plans written there"})
    Path plans;

    @Override
    Integer run(Path csv, PrintWriter out) {
        SolveCase c = solverOptions.solveCase();
        GapsBench.Spec spec = new GapsBench.Spec(graphs, budgets, setting.or(TensorSetting.ACTIVATIONS), orderWork,
                plans, c.cosma(CosmaObjective.TRAFFIC, null, null), () -> c.commandLimits(Main.started()), c::minimumPeak);
        TextTable.live(GapsBench.HEADER, csv, out, rows -> GapsBench.run(spec, rows, err(), new Heartbeat(err())));
        out.println("every plan checked: VALID; wrote " + csv);
        return 0;
    }
}
