package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --recompute-weight} on solve, compare and budgets, end to end through the command line: a graph where
 * running an operator again beats spilling (x:1 -> a (cost 1) -> y:4, read by b and, late, by d; budget 9), a cheap
 * and a dear weight, the plan written as memplan-plan/2 and checked, and the errors.
 */
class RecomputeCommandsTest {
    @TempDir
    Path dir;

    /** The early-late graph of RecomputeOptimalityTest: spill only pays 8 bytes at budget 9, a recompute cost 1. */
    private Path earlyLate() throws IOException {
        Path file = dir.resolve("early-late.json");
        Files.writeString(file, """
                {"format": "memplan-graph/1", "name": "early-late",
                 "tensors": [{"name": "x", "size": 1, "kind": "activation"},
                             {"name": "y", "size": 4, "kind": "activation"},
                             {"name": "z", "size": 4, "kind": "activation"},
                             {"name": "u", "size": 4, "kind": "activation"},
                             {"name": "v", "size": 1, "kind": "activation"}],
                 "operators": [{"name": "a", "inputs": ["x"], "outputs": ["y"], "cost": 1},
                               {"name": "b", "inputs": ["y"], "outputs": ["z"], "cost": 5},
                               {"name": "c", "inputs": ["z"], "outputs": ["u"], "cost": 5},
                               {"name": "d", "inputs": ["y", "u"], "outputs": ["v"], "cost": 5}],
                 "outputs": ["v"]}
                """);
        return file;
    }

    @Test
    void solveRecomputesWhenItPaysAndWritesPlan2() throws IOException {
        Path graph = earlyLate();
        Path plan = dir.resolve("plan.json");
        MainTest.Result r = MainTest.run("solve", graph.toString(), "--budget", "9", "--recompute-weight", "1",
                "--out", plan.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*objective\\s+traffic \\+ 1 x recompute cost, free schedule\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*status\\s+OPTIMAL\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*objective\\s+0 \\+ 1 x 1 = 1 .*"), r.out());
        assertTrue(r.out().matches("(?s).*recomputes\\s+1\\n.*"), r.out());
        // DTR's plan, re-planned on its runs, already pays nothing but the recompute: it is the answer.
        assertTrue(r.out().matches("(?s).*plan from\\s+default/dtr/\\w+/tflite, re-planned\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*spill-only\\s+OPTIMAL, traffic 8,.*"), r.out());
        assertTrue(r.out().contains("default/dtr/belady/tflite"), r.out());
        assertTrue(Files.readString(plan).contains("\"format\": \"memplan-plan/2\""), Files.readString(plan));
        MainTest.Result check = MainTest.run("check", graph.toString(), plan.toString());
        assertEquals(0, check.code(), check.out() + check.err());
        assertTrue(check.out().startsWith("VALID"), check.out());
        assertTrue(check.out().matches("(?s).*recomputes\\s+1\\n.*"), check.out());
        // Without the re-planning the reruns placed at once find the same objective, without those and the exact
        // search over runs the recompute search, and without all four the joint program.
        MainTest.Result placed = MainTest.run("solve", graph.toString(), "--budget", "9", "--recompute-weight", "1",
                "--without", "replan");
        assertEquals(0, placed.code(), placed.err());
        assertTrue(placed.out().matches("(?s).*objective\\s+0 \\+ 1 x 1 = 1 .*"), placed.out());
        assertTrue(placed.out().matches("(?s).*plan from\\s+.*, reruns placed at once and covered exactly\\n.*"),
                placed.out());
        // Without the re-planning and the reruns placed at once, the exact search over runs finds it and proves it.
        MainTest.Result paths = MainTest.run("solve", graph.toString(), "--budget", "9", "--recompute-weight", "1",
                "--without", "replan,rerun-cover");
        assertEquals(0, paths.code(), paths.err());
        assertTrue(paths.out().matches("(?s).*objective\\s+0 \\+ 1 x 1 = 1 .*"), paths.out());
        assertTrue(paths.out().matches("(?s).*status\\s+OPTIMAL\\n.*"), paths.out());
        assertTrue(paths.out().matches("(?s).*plan from\\s+the exact search over runs\\n.*"), paths.out());
        MainTest.Result chosen = MainTest.run("solve", graph.toString(), "--budget", "9", "--recompute-weight", "1",
                "--without", "replan,rerun-cover,run-paths");
        assertEquals(0, chosen.code(), chosen.err());
        assertTrue(chosen.out().matches("(?s).*objective\\s+0 \\+ 1 x 1 = 1 .*"), chosen.out());
        assertTrue(chosen.out().matches("(?s).*plan from\\s+chosen recomputes(, re-planned)?\\n.*"), chosen.out());
        assertTrue(chosen.out().matches("(?s).*chosen recomputes\\s+from the plan of .*1 recomputes added.*"),
                chosen.out());
        MainTest.Result joint = MainTest.run("solve", graph.toString(), "--budget", "9", "--recompute-weight", "1",
                "--without", "replan,choose,rerun-cover,run-paths");
        assertEquals(0, joint.code(), joint.err());
        assertTrue(joint.out().matches("(?s).*objective\\s+0 \\+ 1 x 1 = 1 .*"), joint.out());
        assertTrue(joint.out().matches("(?s).*plan from\\s+joint program\\n.*"), joint.out());
    }

    @Test
    void aDearWeightKeepsTheSpillOnlyPlan() throws IOException {
        Path graph = earlyLate();
        Path plan = dir.resolve("plan.json");
        MainTest.Result r = MainTest.run("solve", graph.toString(), "--budget", "9", "--recompute-weight", "64",
                "--out", plan.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*objective\\s+8 \\+ 64 x 0 = 8 .*"), r.out());
        assertTrue(r.out().matches("(?s).*plan from\\s+spill-only\\n.*"), r.out());
        assertTrue(Files.readString(plan).contains("\"format\": \"memplan-plan/1\""), Files.readString(plan));
    }

    @Test
    void withoutTheWeightSolveIsSpillOnly() throws IOException {
        MainTest.Result r = MainTest.run("solve", earlyLate().toString(), "--budget", "9");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*objective\\s+traffic, free schedule\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*non-compulsory traffic\\s+8\\n.*"), r.out());
        assertFalse(r.out().contains("recompute"), r.out());
    }

    @Test
    void compareShowsTheRecomputeBaselinesBesideCosma() throws IOException {
        MainTest.Result r = MainTest.run("compare", earlyLate().toString(), "--budget", "9", "--recompute-weight",
                "1", "--work-limit", "5");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*planner\\s+status\\s+non-compulsory\\s+recomputes\\s+recompute cost\\s+"
                + "objective\\s+cosma reduction.*"), r.out());
        assertTrue(r.out().matches("(?s).*default/dtr/greedy/tflite\\s+HEURISTIC.*"), r.out());
        // COSMA's row: no traffic, one recompute of cost 1, objective 1, from DTR's plan re-planned on its runs.
        assertTrue(r.out().matches("(?s).*cosma/cpsat\\s+OPTIMAL\\s+0\\s+1\\s+1\\s+1\\s+0\\.0%.*plan from "
                + "default/dtr/\\w+/tflite, re-planned.*"), r.out());
        assertTrue(r.out().contains("every plan checked: VALID"), r.out());
        MainTest.Result schemesOnly = MainTest.run("compare", earlyLate().toString(), "--budget", "9",
                "--recompute-weight", "1", "--no-cosma");
        assertEquals(0, schemesOnly.code(), schemesOnly.err());
        assertTrue(schemesOnly.out().matches("(?s).*default/dtr/belady/tflite\\s+HEURISTIC.*"), schemesOnly.out());
        assertFalse(schemesOnly.out().contains("cosma/"), schemesOnly.out());
        MainTest.Result without = MainTest.run("compare", earlyLate().toString(), "--budget", "9");
        assertFalse(without.out().contains("dtr"), without.out());
        assertFalse(without.out().contains("recompute"), without.out());
    }

    @Test
    void budgetsSaysWhatTheBudgetsMeanWithRecomputation() {
        MainTest.Result r = MainTest.run("budgets", "fig1:train", "--setting", "activations", "--recompute-weight",
                "0.5");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("with recomputation (lambda 0.5 bytes per cost unit): M_R is the same"), r.out());
        assertTrue(r.out().contains("training step: operators 0 .. "), r.out());
    }

    @Test
    void aBadWeightIsOneLine() throws IOException {
        String graph = earlyLate().toString();
        for (String bad : new String[] {"-1", "NaN", "abc", "Infinity"}) {
            for (String command : new String[] {"solve", "compare"}) {
                MainTest.Result r = MainTest.run(command, graph, "--budget", "9", "--recompute-weight", bad);
                assertEquals(2, r.code(), command + " " + bad + ": " + r.out() + r.err());
                assertTrue(r.err().contains("--recompute-weight: '" + bad + "' is not a finite number >= 0"),
                        r.err());
                assertEquals(1, r.err().strip().lines().count(), r.err());
            }
        }
        MainTest.Result peak = MainTest.run("solve", graph, "--budget", "9", "--objective", "peak",
                "--recompute-weight", "1");
        assertEquals(2, peak.code(), peak.err());
        assertTrue(peak.err().contains("it needs --objective traffic"), peak.err());
    }
}
