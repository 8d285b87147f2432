package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** memplan solve on every example with every back-end; every plan it writes passes memplan check. */
class SolveCommandTest {
    @TempDir
    Path dir;

    private static long traffic(String out) {
        Matcher m = Pattern.compile("non-compulsory traffic\\s+(\\d+)").matcher(out);
        assertTrue(m.find(), out);
        return Long.parseLong(m.group(1));
    }

    @Test
    void everyExampleWithEveryBackEndGivesACheckedOptimalPlan() {
        for (String example : Examples.names()) {
            Long agreed = null;
            for (String solver : new String[] {"scip", "cpsat", "cbc", "highs", "ojalgo"}) {
                Path plan = dir.resolve(example + "-" + solver + ".json");
                // ojAlgo (pure Java) is for small models: it gets a limit and must still return a checked plan.
                boolean limited = solver.equals("ojalgo");
                MainTest.Result r = limited
                        ? MainTest.run("solve", example, "--budget", "M_R", "--solver", solver, "--time-limit", "5",
                                "--out", plan.toString())
                        : MainTest.run("solve", example, "--budget", "M_R", "--solver", solver, "--out", plan.toString());
                assertEquals(0, r.code(), example + " " + solver + ": " + r.out() + r.err());
                boolean optimal = r.out().contains("status                  OPTIMAL");
                assertTrue(optimal || limited, r.out());
                long t = traffic(r.out());
                MainTest.Result check = MainTest.run("check", example, plan.toString());
                assertEquals(0, check.code(), check.out());
                assertTrue(check.out().matches("(?s).*\\nnon-compulsory\\s+" + t + "\\n.*"), check.out());
                if (!optimal) {
                    assertTrue(t >= agreed, "a limited run cannot beat the optimum");
                    continue;
                }
                if (agreed == null) {
                    agreed = t;
                }
                assertEquals(agreed.longValue(), t, example + " " + solver);
            }
        }
    }

    @Test
    void bothEncodingsReachTheSameOptimum() {
        for (String budget : new String[] {"M_R", "M_H"}) {
            MainTest.Result joint = MainTest.run("solve", "fig1", "--budget", budget, "--encoding", "joint");
            MainTest.Result decoupled = MainTest.run("solve", "fig1", "--budget", budget, "--encoding", "decoupled");
            assertTrue(joint.out().contains("OPTIMAL") && decoupled.out().contains("OPTIMAL"), decoupled.out());
            assertEquals(traffic(joint.out()), traffic(decoupled.out()), budget);
        }
        MainTest.Result bad = MainTest.run("solve", "fig1", "--budget", "M_R", "--encoding", "split");
        assertEquals(ExitCode.USER_ERROR.code(), bad.code());
        assertTrue(bad.err().contains("unknown encoding 'split'"), bad.err());
    }

    @Test
    void everyTechniqueCanBeSwitchedOffWithoutChangingTheOptimum() {
        MainTest.Result all = MainTest.run("solve", "transformer", "--budget", "M_R", "--setting", "all",
                "--time-limit", "60");
        assertEquals(0, all.code(), all.err());
        assertTrue(all.out().contains("status                  OPTIMAL"), all.out());
        assertEquals(4_915_200, traffic(all.out()));
        for (String off : new String[] {"forced", "start-order", "lift", "prune", "PRUNE,forced"}) {
            MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_R", "--without", off);
            assertEquals(0, r.code(), r.err());
            // One set of techniques: listed in the enum's order, whatever the order they are given in.
            String shown = off.equals("PRUNE,forced") ? "forced,prune" : off;
            assertTrue(r.out().contains("OPTIMAL") && r.out().contains("without " + shown), r.out());
            assertEquals(traffic(MainTest.run("solve", "fig1", "--budget", "M_R").out()), traffic(r.out()), off);
        }
        // The one ablation switch: --without prune builds the model without its lifetime windows, as the older
        // --no-prune (kept, hidden) does.
        String withoutPrune = MainTest.run("solve", "fig1", "--budget", "M_R", "--without", "prune").out();
        String noPrune = MainTest.run("solve", "fig1", "--budget", "M_R", "--no-prune").out();
        assertTrue(withoutPrune.contains("(no pruning)"), withoutPrune);
        assertEquals(withoutPrune.replaceAll("time +[0-9.]+ s", ""), noPrune.replaceAll("time +[0-9.]+ s", ""));
        MainTest.Result bad = MainTest.run("solve", "fig1", "--budget", "M_R", "--without", "magic");
        assertEquals(ExitCode.USER_ERROR.code(), bad.code());
        assertTrue(bad.err().contains("unknown technique 'magic'") && bad.err().contains("start-order"), bad.err());
    }

    @Test
    void decoupledSolvesAZooNetworkWithParametersAtMR() {
        // ResNet-50 with parameters at M_R: the relaxation's optimum packs, so it is proven optimal.
        MainTest.Result r = MainTest.run("solve", "resnet50", "--budget", "M_R", "--setting", "all", "--time-limit", "60");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("status                  OPTIMAL"), r.out());
        assertEquals(602_112, traffic(r.out()));
    }

    @Test
    void fig1AtTheThreeBudgets() {
        assertEquals(64, traffic(MainTest.run("solve", "fig1", "--budget", "M_R").out()));
        MainTest.Result mh = MainTest.run("solve", "fig1", "--budget", "M_H");
        assertTrue(mh.out().contains("48 (M_H; M_R = 32, M_P = 64)"), mh.out());
        assertEquals(24, traffic(mh.out()));
        assertEquals(0, traffic(MainTest.run("solve", "fig1", "--budget", "M_P").out()));
    }

    @Test
    void fixedScheduleAndPeakObjective() {
        MainTest.Result fixed = MainTest.run("solve", "diamond", "--budget", "160", "--schedule", "default");
        MainTest.Result free = MainTest.run("solve", "diamond", "--budget", "160");
        assertTrue(fixed.out().contains("fixed schedule"), fixed.out());
        assertTrue(traffic(fixed.out()) > traffic(free.out()), fixed.out() + free.out());
        assertEquals(0, traffic(free.out()));
        MainTest.Result peak = MainTest.run("solve", "diamond", "--budget", "200", "--objective", "peak");
        assertEquals(0, peak.code(), peak.out() + peak.err());
        assertTrue(peak.out().matches("(?s).*peak footprint\\s+160\\n.*"), peak.out());
    }

    @Test
    void budgetBelowMRIsAUserErrorThatStatesMR() {
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "31");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("budget 31 is below M_R = 32"), r.err());
        MainTest.Result bad = MainTest.run("solve", "fig1", "--budget", "lots");
        assertEquals(2, bad.code());
        MainTest.Result solver = MainTest.run("solve", "fig1", "--budget", "M_R", "--solver", "gurobi");
        assertEquals(2, solver.code());
        assertTrue(solver.err().contains("scip"), solver.err());
    }
}
