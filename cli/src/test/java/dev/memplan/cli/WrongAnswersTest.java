package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import dev.memplan.model.Graph;
import dev.memplan.model.io.GraphJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, items 1-3, as a user meets them: alignment in solve and compare (an aligned optimum or a proven
 * INFEASIBLE, exit 1, never exit 3), values beyond the supported range (exit 2 naming the place), and the inputs
 * that used to crash with exit 3. Each with the smallest input that showed it.
 */
class WrongAnswersTest {
    @TempDir
    Path dir;

    private static final String BIG = Long.toString(Long.MAX_VALUE);

    private static void assertNoStackTrace(MainTest.Result r) {
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(r.err().contains("internal error"), r.err());
    }

    /** fig1 with another alignment, as a memplan-graph/1 file. */
    private Path fig1(long alignment) throws IOException {
        Graph g = Examples.graph("fig1");
        Path file = dir.resolve("fig1-a" + alignment + ".json");
        GraphJson.write(new Graph(g.name(), alignment, g.tensors(), g.operators(), g.outputs()), file);
        return file;
    }

    @Test
    void solveWithAlignmentGivesAnAlignedOptimumOrProvenInfeasible() throws IOException {
        Path a3 = fig1(3);
        Path plan = dir.resolve("plan.json");
        MainTest.Result r = MainTest.run("solve", a3.toString(), "--budget", "M_H", "--out", plan.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        // 48 bytes at alignment 3: the brute force's optimum is 40 (AlignedOptimalityTest checks it)
        assertTrue(r.out().matches("(?s).*status\\s+OPTIMAL\\n.*non-compulsory traffic\\s+40\\n.*"), r.out());
        MainTest.Result check = MainTest.run("check", a3.toString(), plan.toString());
        assertEquals(0, check.code(), check.out());
        // M_R = 32, but n1's three tensors (8, 16, 8) at multiples of 3 need 34 bytes
        MainTest.Result low = MainTest.run("solve", a3.toString(), "--budget", "M_R", "--encoding", "joint");
        assertEquals(ExitCode.NO.code(), low.code(), low.out() + low.err());
        assertTrue(low.out().contains("status                  INFEASIBLE"), low.out());
        assertTrue(low.out().contains("no plan: proven infeasible"), low.out());
        assertNoStackTrace(low);
        MainTest.Result budgets = MainTest.run("budgets", a3.toString(), "--setting", "activations");
        assertTrue(budgets.out().contains("least aligned budget (activations): 34 "), budgets.out());
        MainTest.Result a64 = MainTest.run("solve", fig1(64).toString(), "--budget", "M_P", "--schedule", "default");
        assertEquals(ExitCode.NO.code(), a64.code(), a64.out() + a64.err());
        // divide and conquer (forced here by a break node; automatic above 300 operators) ran the schemes first
        MainTest.Result dnc = MainTest.run("solve", a3.toString(), "--budget", "M_R", "--break-nodes", "n4");
        assertEquals(ExitCode.NO.code(), dnc.code(), dnc.out() + dnc.err());
        assertNoStackTrace(dnc);
        MainTest.Result parts = MainTest.run("solve", a3.toString(), "--budget", "M_H", "--break-nodes", "n4");
        assertEquals(0, parts.code(), parts.out() + parts.err());
        assertTrue(parts.out().matches("(?s).*non-compulsory traffic\\s+40\\n.*"), parts.out());
    }

    @Test
    void compareWithAlignment() throws IOException {
        Path a16 = fig1(16);
        MainTest.Result r = MainTest.run("compare", a16.toString(), "--budget", "M_H");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("every plan checked: VALID"), r.out());
        MainTest.Result low = MainTest.run("compare", a16.toString(), "--budget", "M_R");
        assertEquals(ExitCode.NO.code(), low.code(), low.out() + low.err());
        assertTrue(low.out().contains("no plan: proven infeasible (alignment 16"), low.out());
        assertNoStackTrace(low);
    }

    @Test
    void valuesBeyondTwoToTheFiftyThreeAreUserErrors() throws IOException {
        Path plan = dir.resolve("far.plan.json");
        Files.writeString(plan, "{\"format\": \"memplan-plan/1\", \"graph\": \"fig1\", \"setting\": \"activations\", "
                + "\"budget\": 48, \"schedule\": [\"n1\", \"n2\", \"n3\", \"n4\", \"n5\", \"n6\", \"n7\"], \"tensors\": "
                + "[{\"name\": \"a1\", \"segments\": [{\"start\": 0, \"end\": 0, \"offset\": " + BIG
                + ", \"origin\": \"created\"}]}]}");
        MainTest.Result check = MainTest.run("check", "fig1", plan.toString());
        assertEquals(ExitCode.USER_ERROR.code(), check.code(), check.out() + check.err());
        assertTrue(check.err().contains("$.tensors[0].segments[0].offset: offset is " + BIG + ", above 2^53"),
                check.err());
        Path graph = dir.resolve("big.json");
        Files.writeString(graph, GraphJson.toJson(Examples.graph("fig1")).replace("\"size\": 16", "\"size\": " + BIG));
        MainTest.Result budgets = MainTest.run("budgets", graph.toString());
        assertEquals(ExitCode.USER_ERROR.code(), budgets.code());
        assertTrue(budgets.err().contains("$.tensors[1].size: the size of tensor 'a1' is " + BIG), budgets.err());
        Path csv = dir.resolve("huge.12.csv");
        Files.writeString(csv, "id,lower,upper,size\nb0,0,1," + BIG + "\n");
        MainTest.Result tflite = MainTest.run("allocate", csv.toString(), "--allocator", "tflite");
        assertEquals(ExitCode.USER_ERROR.code(), tflite.code(), tflite.out());
        assertTrue(tflite.err().contains("line 2, column 'size': size is " + BIG), tflite.err());
        MainTest.Result budget = MainTest.run("solve", "fig1", "--budget", "9007199254740993");
        assertEquals(ExitCode.USER_ERROR.code(), budget.code());
        assertTrue(budget.err().contains("budget is 9007199254740993, above 2^53"), budget.err());
    }

    @Test
    void skylineOnABufferAboveTheCapacityGivesUp() throws IOException {
        Path csv = dir.resolve("big.12.csv");
        Files.writeString(csv, "id,lower,upper,size\nsmall,0,2,4\nbig,1,3,9007199254740000\n");
        for (String allocator : new String[] {"skyline", "tflite", "minimalloc"}) {
            MainTest.Result r = MainTest.run("allocate", csv.toString(), "--allocator", allocator);
            assertTrue(r.code() == ExitCode.NO.code() || r.code() == ExitCode.NOT_FOUND.code(), allocator + ": " + r.out() + r.err());
            assertNoStackTrace(r);
        }
        MainTest.Result capacity = MainTest.run("allocate", csv.toString(), "--capacity", "9007199254740993");
        assertEquals(ExitCode.USER_ERROR.code(), capacity.code());
    }

    @Test
    void aGraphWithTensorsButNoOperatorsHasAnEmptyPlan() throws IOException {
        Path graph = dir.resolve("idle.json");
        Files.writeString(graph, "{\"format\": \"memplan-graph/1\", \"name\": \"idle\", \"tensors\": [{\"name\": \"x\", "
                + "\"size\": 8, \"kind\": \"activation\"}], \"operators\": [], \"outputs\": []}");
        MainTest.Result budgets = MainTest.run("budgets", graph.toString());
        assertEquals(0, budgets.code(), budgets.err());
        assertTrue(budgets.out().matches("(?s).*activations\\s+0\\s+0\\s+0\\s+0.*"), budgets.out());
        MainTest.Result compare = MainTest.run("compare", graph.toString(), "--budget", "M_H");
        assertEquals(0, compare.code(), compare.err());
        assertTrue(compare.out().contains("every plan checked: VALID"), compare.out());
        MainTest.Result solve = MainTest.run("solve", graph.toString(), "--budget", "8");
        assertEquals(0, solve.code(), solve.err());
    }

    @Test
    void aTimeLimitOfATrillionSecondsIsNoLimit() {
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_H", "--solver", "ojalgo", "--time-limit", "1e12");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().matches("(?s).*status\\s+OPTIMAL\\n.*non-compulsory traffic\\s+24\\n.*"), r.out());
    }

    @Test
    void benchCheckerNeedsARunAndAWindow() {
        MainTest.Result repeats = MainTest.run("bench", "checker", "--repeats", "0", "--sizes", "10");
        assertEquals(ExitCode.USER_ERROR.code(), repeats.code());
        assertTrue(repeats.err().contains("--repeats must be >= 1"), repeats.err());
        MainTest.Result window = MainTest.run("bench", "checker", "--window", "0", "--sizes", "10");
        assertEquals(ExitCode.USER_ERROR.code(), window.code());
        assertTrue(window.err().contains("--window must be >= 1"), window.err());
    }
}
