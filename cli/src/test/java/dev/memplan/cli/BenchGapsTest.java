package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memplan bench gaps}: the case as solve runs it, the order's bound, plans reused, options checked first. */
class BenchGapsTest {
    @TempDir
    Path dir;

    @Test
    void aCaseHasSolvesTrafficAndBoundAndItsPlanIsReadBackFromThePlansFolder() throws Exception {
        MainTest.Result solve = MainTest.run("solve", "fig1", "--budget", "M_R", "--work-limit", "5");
        assertEquals(0, solve.code(), solve.err());
        String traffic = solve.out().replaceAll("(?s).*non-compulsory traffic +(\\d+).*", "$1");
        String bound = solve.out().replaceAll("(?s).*\\nbound +(\\d+).*", "$1");
        Path csv = dir.resolve("g.csv");
        Path plans = Files.createDirectory(dir.resolve("plans"));
        MainTest.Result first = MainTest.run("bench", "gaps", "--graphs", "fig1", "--budgets", "M_R", "--work-limit",
                "5", "--plans", plans.toString(), "--csv", csv.toString());
        assertEquals(0, first.code(), first.err());
        assertTrue(Files.isRegularFile(plans.resolve("fig1-M_R.plan.json")));
        List<String> lines = Files.readAllLines(csv);
        assertEquals(2, lines.size(), lines.toString());
        String[] row = lines.get(1).split(",");
        assertEquals("fig1", row[0]);
        assertEquals(traffic, row[3]);
        assertEquals(bound, row[5]);
        // The order's bound never exceeds the plan's traffic, and the split adds up to the gap.
        assertTrue(Long.parseLong(row[11]) <= Long.parseLong(traffic), lines.get(1));
        MainTest.Result again = MainTest.run("bench", "gaps", "--graphs", "fig1", "--budgets", "M_R", "--work-limit",
                "5", "--plans", plans.toString(), "--csv", csv.toString());
        assertEquals(0, again.code(), again.err());
        String[] reread = Files.readAllLines(csv).get(1).split(",");
        assertEquals("plan file", reread[reread.length - 1]);
        // Every column but the LP's seconds (9) and where the plan came from (the last) is the same.
        assertEquals(row.length, reread.length);
        for (int i = 0; i < row.length - 1; i++) {
            if (i != 9) {
                assertEquals(row[i], reread[i], "column " + i);
            }
        }
    }

    @Test
    void badOptionsAreRefusedBeforeAnyWork() {
        Path csv = dir.resolve("none.csv");
        MainTest.Result work = MainTest.run("bench", "gaps", "--order-work", "-1", "--csv", csv.toString());
        assertEquals(Main.USER_ERROR, work.code());
        assertTrue(work.err().contains("--order-work must be a number of work units >= 0, got -1"), work.err());
        MainTest.Result plans = MainTest.run("bench", "gaps", "--plans", dir.resolve("missing").toString(), "--csv",
                csv.toString());
        assertEquals(Main.USER_ERROR, plans.code());
        assertTrue(plans.err().contains("is not a folder"), plans.err());
        assertFalse(Files.exists(csv));
    }
}
