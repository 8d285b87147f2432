package dev.memplan.cli;

import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.TensorSetting;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The axes of the benches over the zoo, declared once: networks, budgets and tensor settings (bench compare, cosma). */
final class ZooAxes {
    @Option(names = "--networks", split = ",", paramLabel = "N1,...",
            description = "zoo networks (default: compare the ten human-designed ones; cosma all 14, the NAS ones with"
                    + " fixed schedules)")
    List<String> networks;

    @Mixin
    BudgetsOption budgets;

    @Option(names = "--settings", split = ",", defaultValue = "activations,all", paramLabel = "S1,...",
            description = "tensor settings; NAS networks use activations only, as the paper (default: ${DEFAULT-VALUE})")
    List<String> settings;

    /**
     * The networks given, or the zoo's {@code nas} or all of them (nas null); each checked, as are the settings (then
     * written as files write them).
     */
    List<String> networks(Boolean nas) {
        settings = settings.stream().map(s -> UserException.of(() -> TensorSetting.parse(s)).fileName()).toList();
        return Inputs.zooNetworks(networks != null ? networks
                : Zoo.names().stream().filter(n -> nas == null || Zoo.entry(n).nas() == nas).toList());
    }
}
