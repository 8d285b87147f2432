package dev.memplan.cli;

import dev.memplan.model.TensorSetting;
import picocli.CommandLine.Option;

/**
 * {@code --setting}, declared once for every command that reads a graph in one tensor setting; each command says
 * what no {@code --setting} means (its help carries the rule).
 */
final class SettingOption {
    @Option(names = "--setting", paramLabel = "activations|all",
            description = "tensor setting: 'all' adds the parameters (default: activations; with a plan, the plan's"
                    + " own; budgets: both; bench formulations: all)")
    String text;

    /** The setting given, or {@code fallback} (null: none) when there is none; an unknown name is a user error. */
    TensorSetting or(TensorSetting fallback) {
        return text == null ? fallback : UserException.of(() -> TensorSetting.parse(text));
    }

    boolean given() {
        return text != null;
    }
}
