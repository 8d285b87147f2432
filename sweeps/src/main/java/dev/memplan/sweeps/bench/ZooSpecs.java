package dev.memplan.sweeps.bench;

import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.sweeps.PlannerChoice;
import dev.memplan.sweeps.SpecBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The sweep specs of the benches over the zoo: {@code bench-compare} (the paper's Fig. 3) and {@code bench-cosma}
 * (its Table II). Each is a {@link SpecBuilder} over networks x settings x budgets, to which the caller adds the
 * solver axes; the rows are the sweep's, laid out by {@code figures.ComparisonRows} and {@code figures.CosmaRows}.
 */
public final class ZooSpecs {
    private ZooSpecs() {
    }

    /** The schemes and then COSMA (none when {@code cosma} is null) on every network, setting and budget. */
    public static SpecBuilder compare(List<String> networks, List<String> settings, List<String> budgets,
            List<String> schemes, PlannerChoice cosma) {
        List<PlannerChoice> planners = new ArrayList<>(schemes.stream().map(PlannerChoice::scheme).toList());
        if (cosma != null) {
            planners.add(cosma);
        }
        return new SpecBuilder("bench-compare").graphs(networks).settings(settings).budgets(budgets)
                .planners(planners);
    }

    /**
     * The paper's schemes and COSMA ({@code cosmaOn} gives it with a schedule option: free, default, mpmf).
     * Human-designed networks with a free schedule in the settings given; NAS networks (activations only) with the
     * schedule fixed to the default order and to the minimum-peak order.
     */
    public static SpecBuilder cosma(List<String> networks, List<String> settings, List<String> budgets,
            Function<String, PlannerChoice> cosmaOn) {
        List<String> human = networks.stream().filter(n -> !Zoo.entry(n).nas()).toList();
        List<String> nas = networks.stream().filter(n -> Zoo.entry(n).nas()).toList();
        List<PlannerChoice> planners = new ArrayList<>(Schemes.PAPER.stream().map(PlannerChoice::scheme).toList());
        for (String schedule : List.of("free", "default", "mpmf")) {
            planners.add(cosmaOn.apply(schedule));
        }
        List<String> all = new ArrayList<>(settings);
        if (!settings.contains("activations")) {
            all.add("activations");
        }
        SpecBuilder builder = new SpecBuilder("bench-cosma").graphs(networks).settings(all).budgets(budgets)
                .planners(planners);
        if (!nas.isEmpty()) {
            builder.exclude(Map.of("graph", nas, "setting", List.of("all")));
            builder.exclude(Map.of("graph", nas, "planner", List.of("cosma")));
        }
        if (!human.isEmpty()) {
            builder.exclude(Map.of("graph", human, "planner", List.of("cosma[*schedule=*")));
            if (!settings.contains("activations")) {
                builder.exclude(Map.of("graph", human, "setting", List.of("activations")));
            }
        }
        return builder;
    }
}
