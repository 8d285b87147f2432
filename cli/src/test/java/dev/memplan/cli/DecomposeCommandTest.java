package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.model.Graph;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** solve and compare with --decompose / --break-nodes, end to end. */
class DecomposeCommandTest {
    @TempDir
    Path dir;

    @Test
    void solveWithBreakNodesWritesACheckedPlanNeverWorseThanTheOptimumAllows() throws IOException {
        Path plan = dir.resolve("fig1.plan.json");
        MainTest.Result whole = MainTest.run("solve", "fig1", "--budget", "M_H", "--decompose", "none");
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_H", "--break-nodes", "n3", "--out",
                plan.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("divide and conquer (1 break nodes given)"), r.out());
        assertTrue(r.out().contains("plan checked: VALID"), r.out());
        assertTrue(r.err().contains("dnc: "), "progress on stderr: " + r.err());
        Graph g = Inputs.graph("fig1").withSetting(TensorSetting.ACTIVATIONS);
        long traffic = PlanChecker.requireValid(g, PlanJson.read(plan), "test").traffic().nonCompulsory();
        long optimum = Long.parseLong(whole.out().replaceAll("(?s).*non-compulsory traffic\\s+(\\d+).*", "$1"));
        assertTrue(traffic >= optimum, traffic + " < " + optimum);
        assertEquals(0, MainTest.run("check", "fig1", plan.toString()).code());
    }

    @Test
    void autoSolvesSmallGraphsWhole() {
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_H");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("divide and conquer"), r.out());
    }

    @Test
    void userMistakesAreOneLineErrors() throws IOException {
        MainTest.Result unknown = MainTest.run("solve", "fig1", "--budget", "M_H", "--break-nodes", "nope");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("break node 'nope' is not an operator of graph 'fig1'"), unknown.err());
        MainTest.Result missing = MainTest.run("solve", "fig1", "--budget", "M_H", "--decompose",
                dir.resolve("none.txt").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("cannot read the break-node file: no such file or folder"), missing.err());
        Path file = dir.resolve("breaks.txt");
        Files.writeString(file, "# break nodes\nn3\nzzz\n");
        MainTest.Result bad = MainTest.run("solve", "fig1", "--budget", "M_H", "--decompose", file.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("break node 'zzz'"), bad.err());
        assertEquals(2, MainTest.run("solve", "fig1", "--budget", "M_H", "--max-part", "0").code());
        assertFalse(bad.err().contains("Exception"), bad.err());
    }

    @Test
    void compareRunsDivideAndConquerWhenAsked() {
        MainTest.Result r = MainTest.run("compare", "fig1", "--budget", "M_H", "--break-nodes", "n3");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("cosma-dnc/"), r.out());
        assertTrue(r.out().contains("every plan checked: VALID"), r.out());
    }

    /**
     * --decompose auto is never worse than the whole graph's optimum: above the threshold the whole graph runs
     * first, and its proven optimum is the answer (divide and conquer alone once gave 135,868 B for 5,732 B).
     */
    @Test
    void autoKeepsTheWholeGraphsProvenOptimum() {
        String graph = "gen:layered:" + (DivideAndConquer.AUTO_THRESHOLD + 20);
        MainTest.Result none = MainTest.run("solve", graph, "--budget", "M_H", "--decompose", "none",
                "--time-limit", "20");
        assertEquals(0, none.code(), none.err());
        MainTest.Result auto = MainTest.run("solve", graph, "--budget", "M_H", "--time-limit", "20");
        assertEquals(0, auto.code(), auto.err());
        assertTrue(auto.err().contains("decompose auto: the whole graph first"), auto.err());
        long wholeTraffic = traffic(none.out());
        long autoTraffic = traffic(auto.out());
        if (none.out().contains("OPTIMAL")) {
            assertEquals(wholeTraffic, autoTraffic, auto.out());
        }
        if (auto.err().contains("the whole graph gave OPTIMAL")) {
            assertFalse(auto.out().contains("divide and conquer"), auto.out());
        }
    }

    private static long traffic(String report) {
        return Long.parseLong(report.replaceAll("(?s).*non-compulsory traffic\\s+(\\d+).*", "$1"));
    }
}
