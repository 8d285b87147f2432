package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deterministic work budgets (issue 21) for mmap and allocate: the same answer quiet and beside two busy threads,
 * in-process (the solve's pipeline, in JVMs of their own, is {@link WorkLimitTest}); which solvers a work limit
 * works with.
 */
class WorkLimitCommandsTest {
    @TempDir
    Path dir;

    /**
     * mmap under a work limit: MCTS counts its simulated moves and CP-SAT its deterministic time, so the mapping,
     * reward and bound are the same quiet and beside two busy threads.
     */
    @Test
    void mmapUnderAWorkLimitGivesTheSameMappingWithBusyThreadsBeside() throws Exception {
        List<String[]> cases = List.of(
                new String[] {"mmap", "solve", "resnet50", "--planner", "mcts", "--simulations", "100000", "--work-limit",
                    "0.3"},
                new String[] {"mmap", "compare", "resnet50", "--simulations", "100000", "--work-limit", "1.5"});
        List<String> quiet = quietThenBusy(cases, WorkLimitCommandsTest::mapping);
        assertTrue(quiet.get(0).contains("simulated moves"), quiet.get(0));
    }

    /**
     * An mmap report without its wall times, and without the widths they give the table's columns (a run of 10 s
     * or more widens the seconds column by a space).
     */
    private static String mapping(MainTest.Result r) {
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(counted work; the wall clock cut nothing short)"), r.out());
        return r.out().replaceAll("(?m)^time .*$", "").replaceAll("(?m)%( +)[0-9]+\\.[0-9]{2}(?= |$)", "%$1")
                .replaceAll("(built|model) in [0-9.]+ s", "").replaceAll(" +", " ");
    }

    @Test
    void aWorkLimitNeedsCpSat() {
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_R", "--work-limit", "1", "--solver", "scip");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--work-limit needs --solver cpsat"), r.err());
        MainTest.Result bad = MainTest.run("solve", "fig1", "--budget", "M_R", "--work-limit", "-1");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--work-limit must be a number of work units from 0.000001"), bad.err());
        // Issue 37.6: below the counters' resolution it was accepted and printed as a 300-digit decimal.
        MainTest.Result tiny = MainTest.run("solve", "fig1", "--budget", "M_R", "--work-limit", "1e-300");
        assertEquals(2, tiny.code(), tiny.out());
        assertEquals("memplan: error: --work-limit must be a number of work units from 0.000001 (the resolution of"
                + " the work counters) to 1e9, got 1.0E-300", tiny.err().strip());
        MainTest.Result micro = MainTest.run("solve", "fig1", "--budget", "M_R", "--work-limit", "1e-6");
        assertEquals(0, micro.code(), micro.err());
        assertTrue(micro.out().contains(" of 0.000001 units"), micro.out());
    }

    @Test
    void allocateUnderAWorkLimitGivesTheSameAnswerWithBusyThreadsBeside() throws Exception {
        String suite = challenging("C");
        List<String[]> cases = List.of(
                new String[] {"allocate", "gen:trace:1000", "--allocator", "minimalloc", "--minimize", "--work-limit", "0.3"},
                new String[] {"allocate", "gen:trace:2000", "--minimize", "--work-limit", "0.5"},
                new String[] {"allocate", suite, "--allocator", "telamalloc", "--work-limit", "0.3"},
                new String[] {"allocate", suite, "--allocator", "cpsat", "--minimize", "--work-limit", "0.3"});
        List<String> quiet = quietThenBusy(cases, WorkLimitCommandsTest::answer);
        assertTrue(quiet.get(2).contains("the work limit was reached"), quiet.get(2));
        MainTest.Result ilp = MainTest.run("allocate", suite, "--allocator", "ilp", "--work-limit", "1");
        assertEquals(2, ilp.code());
        assertTrue(ilp.err().contains("--work-limit does not work with --allocator ilp"), ilp.err());
    }

    /** The exit code and the output without wall times; the work row must say the clock cut nothing short. */
    private static String answer(MainTest.Result r) {
        assertTrue(r.out().contains("(counted work; the wall clock cut nothing short)"), r.out() + r.err());
        return r.code() + "\n" + r.out().replaceAll("(?m),? (time |after )?[0-9.]+ s(?=[,;:\s)]|$)", "");
    }

    /** MiniMalloc's challenging instance as a CSV file named with its capacity, as the suite ships it. */
    private String challenging(String name) {
        Path file = dir.resolve(name + "." + dev.memplan.datasets.MiniMallocSuite.CHALLENGING_CAPACITY + ".csv");
        dev.memplan.model.io.MiniMallocCsv.write(dev.memplan.datasets.MiniMallocSuite.challenging(name), file);
        return file.toString();
    }

    /**
     * Runs each case quiet, then again beside two busy threads, and asserts the same {@code answer} both times;
     * returns the quiet answers.
     */
    private static List<String> quietThenBusy(List<String[]> cases,
                                              java.util.function.Function<MainTest.Result, String> answer)
            throws Exception {
        List<String> quiet = new ArrayList<>();
        for (String[] c : cases) {
            quiet.add(answer.apply(MainTest.run(c)));
        }
        WorkLimitTest.besideBusyThreads(() -> {
            for (int i = 0; i < cases.size(); i++) {
                assertEquals(quiet.get(i), answer.apply(MainTest.run(cases.get(i))), String.join(" ", cases.get(i)));
            }
            return null;
        });
        return quiet;
    }
}
