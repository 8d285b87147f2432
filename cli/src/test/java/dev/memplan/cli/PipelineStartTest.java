package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.DncResult;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline's divide and conquer is never worse than the best plan it was given or made. */
class PipelineStartTest {
    @TempDir
    Path dir;

    @Test
    void neverReturnsAPlanWorseThanAGivenStart() throws IOException {
        Path optimum = dir.resolve("whole.plan.json");
        MainTest.Result whole = MainTest.run("solve", "fig1", "--budget", "M_R", "--decompose", "none", "--out",
                optimum.toString());
        assertEquals(0, whole.code(), whole.err());
        Graph full = Inputs.graph("fig1");
        Graph g = full.withSetting(TensorSetting.ACTIVATIONS);
        Plan best = PlanJson.read(optimum);
        long bestTraffic = PlanChecker.requireValid(g, best, "test").traffic().nonCompulsory();
        Plan start = best.withResult(PlanChecker.requireValid(g, best, "test").traffic(), best.solver());
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT), null)
                .withBreakNodes(List.of("n2", "n3"));
        StringWriter log = new StringWriter();
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, new PrintWriter(log)::println).run(full,
                TensorSetting.ACTIVATIONS, best.budget(), Limits.DEFAULT, List.of(start));
        DncResult r = o.dnc();
        assertEquals(r.traffic(), o.result().objective());
        assertEquals("cosma-dnc/cpsat", o.result().planner());
        assertTrue(r.spillAtCut() == null || r.spillAtCut() >= bestTraffic, log.toString());
        assertEquals(bestTraffic, r.traffic(), log.toString());
        assertEquals(bestTraffic, PlanChecker.requireValid(g, r.plan(), "test").traffic().nonCompulsory());
        assertTrue(o.bestStart().traffic().nonCompulsory() >= bestTraffic);
    }
}
