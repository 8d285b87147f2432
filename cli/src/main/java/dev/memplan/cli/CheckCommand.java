package dev.memplan.cli;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Violation;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code memplan check GRAPH PLAN}: is the plan valid under the memory model, and what traffic does it cause. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Checks a plan against every rule of the memory model.",
            "Prints VALID and the traffic in bytes, or INVALID and every violation (exit code 1)."})
final class CheckCommand extends CommandBase {
    @Mixin
    GraphInput input;

    @Parameters(index = "1", paramLabel = "PLAN", description = "plan file (memplan-plan/1, or /2 with recomputes)")
    Path plan;

    @picocli.CommandLine.Mixin
    SettingOption setting;

    @Override
    public Integer call() {
        PrintWriter out = out();
        Graph g = input.read();
        Plan p = Inputs.plan(plan, g, setting, out, "checking");
        CheckReport report = PlanChecker.check(g, p);
        if (report.valid()) {
            out.println("VALID");
        } else {
            out.println("INVALID: " + report.violations().size() + " violation"
                    + (report.violations().size() == 1 ? "" : "s"));
            for (Violation v : report.violations()) {
                out.println("  " + dev.memplan.model.io.PrintableText.clean(v.toString()));
            }
        }
        TextTable t = new TextTable("figure", "value");
        report.figures(g, p).forEach(t::row);
        t.printWithoutHeader(out);
        if (report.valid() && p.traffic() != null && !p.traffic().equals(report.traffic())) {
            out.println("note: the traffic recorded in the plan file " + p.traffic() + " differs from the checked figures");
        }
        return report.valid() ? 0 : ExitCode.NO.code();
    }
}
