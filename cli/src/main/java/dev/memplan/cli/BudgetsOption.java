package dev.memplan.cli;

import java.util.List;
import picocli.CommandLine.Option;

/** {@code --budgets} of the benches that sweep budgets, declared once (bench dnc, compare, cosma). */
final class BudgetsOption {
    @Option(names = "--budgets", split = ",", defaultValue = "M_R,M_H,M_P", paramLabel = "B1,...",
            description = "budgets (default: ${DEFAULT-VALUE})")
    List<String> list;
}
