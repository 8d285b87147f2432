package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deterministic work budgets (issue 21): under --work-limit a divide-and-conquer solve gives the same plan on a
 * quiet machine and with busy threads beside it, and solve and compare give the same traffic for one case.
 */
class WorkLimitTest {
    @TempDir
    Path dir;

    private static final String GRAPH = "gen:cells:400:3";

    private String solve(Path out) throws Exception {
        MainTest.Result r = MainTest.run("solve", GRAPH, "--budget", "M_R", "--work-limit", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(deterministic: the same on every run)"), r.out());
        assertTrue(r.out().contains("divide and conquer"), r.out());
        return Files.readString(out);
    }

    @Test
    void divideAndConquerGivesTheSamePlanUnderDifferentThreadTiming() throws Exception {
        String quiet = solve(dir.resolve("quiet.json"));
        // Two CPU-bound threads beside the second run: every wall-time share would come out differently.
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() % 7;
                }
                if (x == 42) {
                    System.out.print("");
                }
            });
            t.setDaemon(true);
            t.start();
            busy.add(t);
        }
        String loaded;
        try {
            loaded = solve(dir.resolve("loaded.json"));
        } finally {
            stop.set(true);
            for (Thread t : busy) {
                t.join();
            }
        }
        assertEquals(withoutSeconds(quiet), withoutSeconds(loaded));
    }

    @Test
    void solveAndCompareAgreeOnOneCase() {
        MainTest.Result s = MainTest.run("solve", GRAPH, "--budget", "M_R", "--work-limit", "2");
        MainTest.Result c = MainTest.run("compare", GRAPH, "--budget", "M_R", "--work-limit", "2");
        assertEquals(0, s.code(), s.err());
        assertEquals(0, c.code(), c.err());
        String traffic = s.out().replaceAll("(?s).*non-compulsory traffic\\s+(\\d+).*", "$1");
        assertTrue(c.out().matches("(?s).*\\bcosma\\b[^\\n]*\\b" + traffic + "\\b.*"), traffic + "\n" + c.out());
    }

    @Test
    void aWorkLimitNeedsCpSat() {
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_R", "--work-limit", "1", "--solver", "scip");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--work-limit needs --solver cpsat"), r.err());
        MainTest.Result bad = MainTest.run("solve", "fig1", "--budget", "M_R", "--work-limit", "-1");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--work-limit must be a positive number"), bad.err());
    }

    /** A plan file names the wall time its solver took; everything else must match. */
    private static String withoutSeconds(String json) {
        return json.replaceAll("\"seconds\"\\s*:\\s*[0-9.eE+-]+", "\"seconds\":0");
    }
}
