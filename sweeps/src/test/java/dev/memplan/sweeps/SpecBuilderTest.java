package dev.memplan.sweeps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memplan.formulations.cosma.Technique;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A spec built as an object gives the cases of the same spec written as YAML. */
class SpecBuilderTest {
    @Test
    void builtAndWrittenSpecsHaveTheSameCases() {
        SweepSpec built = new SpecBuilder("b").graphs(List.of("fig1", "chain")).settings(List.of("activations", "all"))
                .budgets(List.of("M_R", "0.5"))
                .planners(List.of(PlannerChoice.scheme("default/belady/tflite"),
                        PlannerChoice.cosma(Map.of("encoding", "decoupled", "schedule", "mpmf"),
                                Set.of(Technique.PRUNE, Technique.FORCED))))
                .solver("cpsat", null, 2.0, 1)
                .exclude(Map.of("graph", List.of("chain"), "setting", List.of("all")))
                .build();
        SweepSpec written = SweepSpec.parse("""
                name: b
                graphs: [fig1, chain]
                settings: [activations, all]
                budgets: [M_R, "0.5"]
                planners: [default/belady/tflite, {name: cosma, schedule: mpmf, without: [prune, forced]}]
                solvers: [cpsat]
                time_limits: [none]
                work_limits: [2]
                threads: [1]
                exclude:
                  - {graph: chain, setting: all}
                """, "b.yaml", Path.of("").toAbsolutePath());
        assertEquals(written.cases(), built.cases());
        assertEquals(12, built.cases().size());
        assertEquals("cosma[schedule=mpmf,without=forced+prune]", built.cases().get(1).planner().label());
    }

    @Test
    void anUnknownCosmaOptionIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PlannerChoice.cosma(Map.of("shedule", "mpmf"), Set.of()));
    }
}
