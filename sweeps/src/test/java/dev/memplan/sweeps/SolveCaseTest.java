package dev.memplan.sweeps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.datasets.Examples;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command line's case: every value checked where it is made, its limits, its COSMA choice, its break nodes. */
class SolveCaseTest {
    @TempDir
    Path dir;

    private static SolveCase of(Backend backend, Double time, Double work, int threads, Set<Technique> off,
                                Integer beam, String decompose, int maxPart, List<String> breakNodes) {
        return new SolveCase(TensorSetting.ACTIVATIONS, "M_R", null, backend, time, work, threads,
                PlannerChoice.Encoding.DECOUPLED, off, beam, decompose, maxPart, breakNodes);
    }

    private static SolveCase plain() {
        return of(Backend.CPSAT, null, null, 1, Set.of(), null, "auto", 30, null);
    }

    private static String refused(Runnable make) {
        return assertThrows(IllegalArgumentException.class, make::run).getMessage();
    }

    @Test
    void eachBadValueIsRefusedNamingItsOption() {
        assertTrue(refused(() -> of(Backend.SCIP, null, 5.0, 1, Set.of(), null, "auto", 30, null))
                .startsWith("--work-limit needs --solver cpsat"));
        assertEquals("--mp-beam must be >= 1, got 0",
                refused(() -> of(Backend.CPSAT, null, null, 1, Set.of(), 0, "auto", 30, null)));
        assertEquals("--max-part must be >= 1, got 0",
                refused(() -> of(Backend.CPSAT, null, null, 1, Set.of(), null, "auto", 0, null)));
        assertTrue(refused(() -> of(Backend.CPSAT, -1.0, null, 1, Set.of(), null, "auto", 30, null))
                .contains("--time-limit"));
        assertTrue(refused(() -> of(Backend.CPSAT, null, null, 0, Set.of(), null, "auto", 30, null))
                .contains("--threads"));
        assertEquals("--recompute-weight: 'x' is not a finite number >= 0 (bytes of traffic per cost unit)",
                refused(() -> SolveCase.recomputeWeight("x")));
        assertEquals("--recompute-weight: '-1' is not a finite number >= 0 (bytes of traffic per cost unit)",
                refused(() -> SolveCase.recomputeWeight("-1")));
        assertEquals(0.25, SolveCase.recomputeWeight(" 0.25 "));
        String budget = refused(() -> new SolveCase(TensorSetting.ACTIVATIONS, "M_X", null, Backend.CPSAT, null, null,
                1, PlannerChoice.Encoding.DECOUPLED, Set.of(), null, "auto", 30, null));
        assertEquals(refused(() -> dev.memplan.model.BudgetSpec.parse("M_X")), budget);
        assertNull(SolveCase.recomputeWeight(null));
    }

    @Test
    void aWorkLimitDecidesAndTheWallLimitAloneOtherwise() {
        SolveCase work = of(Backend.CPSAT, 20.0, 3.0, 2, Set.of(), null, "auto", 30, null);
        Limits limits = work.limits();
        assertTrue(limits.workMode());
        assertEquals("0.00 of 3 units (counted work; the wall clock cut nothing short)", work.workUsed(limits));
        assertEquals("work limit 3.0 units, time limit 20.0 s, threads 1 (a work limit runs CP-SAT on one worker),"
                + " encoding decoupled", work.describe());
        SolveCase wall = of(Backend.SCIP, 5.0, null, 2, Set.of(), null, "auto", 30, null);
        assertFalse(wall.limits().workMode());
        assertNull(wall.workUsed(wall.limits()));
        assertEquals("time limit 5.0 s, threads 2, encoding decoupled", wall.describe());
    }

    @Test
    void theTechniquesOffAreOneSetThatTheCosmaOptionsAndTheSweepPlannerShare() {
        SolveCase c = of(Backend.CPSAT, null, null, 1, Set.of(Technique.PRUNE, Technique.FORCED), null, "auto", 30,
                null);
        assertFalse(c.pruned());
        assertEquals("decoupled without forced,prune", c.encodingLabel());
        assertEquals(c.off(), c.cosma(CosmaObjective.TRAFFIC, null, null).without());
        assertEquals(PlannerChoice.cosma(Map.of("encoding", "decoupled"), c.off()), c.planner(Map.of()));
        assertTrue(plain().pruned());
        assertEquals("decoupled", plain().encodingLabel());
    }

    @Test
    void breakNodesAreCheckedAgainstTheGraphFromTheOptionOrAFile() throws Exception {
        Graph g = Examples.graph("fig1");
        String first = g.operators().get(0).name();
        MinimumPeakScheduler mpmf = new MinimumPeakScheduler();
        SolveCase given = of(Backend.CPSAT, null, null, 1, Set.of(), null, "auto", 30, List.of(" " + first));
        CosmaPipeline.Settings s = given.pipeline(g, given.cosma(CosmaObjective.TRAFFIC, null, null), mpmf);
        assertEquals(List.of(first), s.breakNodes());
        SolveCase unknown = of(Backend.CPSAT, null, null, 1, Set.of(), null, "auto", 30, List.of("nope"));
        assertEquals("--break-nodes: break node 'nope' is not an operator of graph '" + g.name() + "'",
                refused(() -> unknown.pipeline(g, unknown.cosma(CosmaObjective.TRAFFIC, null, null), mpmf)));
        Path file = dir.resolve("breaks.txt");
        Files.writeString(file, "# cut here\n" + first + "\n");
        SolveCase fromFile = of(Backend.CPSAT, null, null, 1, Set.of(), null, file.toString(), 30, null);
        assertEquals(List.of(first), fromFile.pipeline(g, fromFile.cosma(CosmaObjective.TRAFFIC, null, null), mpmf)
                .breakNodes());
        Files.writeString(file, "# nothing\n");
        assertEquals(file + ": no break node (one operator name a line)",
                refused(() -> fromFile.pipeline(g, fromFile.cosma(CosmaObjective.TRAFFIC, null, null), mpmf)));
        assertTrue(refused(() -> of(Backend.CPSAT, null, null, 1, Set.of(), null, dir.resolve("missing").toString(),
                30, null).pipeline(g, plain().cosma(CosmaObjective.TRAFFIC, null, null), mpmf))
                .contains("cannot read the break-node file"));
        assertEquals(CosmaPipeline.Decompose.NONE, of(Backend.CPSAT, null, null, 1, Set.of(), null, "none", 30, null)
                .pipeline(g, plain().cosma(CosmaObjective.TRAFFIC, null, null), mpmf).decompose());
        assertEquals("automatic break nodes, parts of at most 30 operators",
                SolveCase.describe(DivideAndConquer.Options.of(plain().cosma(CosmaObjective.TRAFFIC, null, null))
                        .withMaxPart(30)));
    }

    @Test
    void aSweepsCosmaCaseIsTheRecordTheCommandLineMakes() {
        SweepSpec spec = SweepSpec.parse("""
                graphs: [fig1]
                settings: [all]
                budgets: [M_H]
                planners: [{name: cosma, encoding: joint, without: [prune, forced], decompose: none}]
                work_limits: [3]
                recompute_weights: [0.5]
                """, "s.yaml", dir);
        SweepCase c = spec.cases().get(0);
        // What solve fig1 --setting all --budget M_H --recompute-weight 0.5 --work-limit 3 --encoding joint
        // --without prune,forced --decompose none makes.
        SolveCase command = new SolveCase(TensorSetting.ALL, "M_H", 0.5, Backend.CPSAT, null, 3.0, 1,
                PlannerChoice.Encoding.JOINT, Set.of(Technique.FORCED, Technique.PRUNE), null, "none", 30, null);
        assertEquals(command, c.solveCase());
        assertEquals(command.planner(Map.of("decompose", "none")), c.planner());
    }
}
