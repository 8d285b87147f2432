package dev.memplan.baselines.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.scheduling.DefaultScheduler;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.model.TrainingStep;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Operator;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Traffic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The recompute baselines (Chen et al.'s checkpointing, DTR) on hand-made training graphs and on the zoo's. */
class RecomputeSchemesTest {

    /** x -> c1 -> a1 -> c2 -> a2 -> c3 -> a3 -> c4 -> a4 (output), convolutions of costs 10, 20, 30, 40. */
    private static Graph chain() {
        Graph.Builder b = Graph.builder("chain4").alignment(1).activation("x", 100);
        String in = "x";
        for (int i = 1; i <= 4; i++) {
            b.parameter("w" + i, 8).activation("a" + i, 100);
            b.operator(new Operator("c" + i, "conv", List.of(in, "w" + i), List.of("a" + i), 10L * i));
            in = "a" + i;
        }
        return b.output("a4").build();
    }

    private static Graph train() {
        return TrainingGraphs.of(chain(), TrainingGraphs.Step.BACKWARD).withSetting(TensorSetting.ACTIVATIONS);
    }

    private static Plan plan(String name, Graph g, long budget, double lambda) {
        return Schemes.recomputing(name, lambda).plan(g, TensorSetting.ACTIVATIONS, budget, Limits.DEFAULT);
    }

    @Test
    void checkpointEverySecondActivationRerunsTheDroppedOnesBeforeTheirBackward() {
        Graph g = train();
        assertEquals(4, TrainingStep.forwardCount(g));
        // The backward reads a1, a2 and a3 (the weight gradients of c2, c3, c4); keeping every 2nd keeps a2, so
        // a1 and a3 are dropped after c2 and c4 and c3 (for c4's weight gradient) and c1 (for c2's) run again.
        long roomy = 100_000;
        Plan p = plan("default/checkpoint-2/belady/tflite", g, roomy, 1);
        List<String> expected = new ArrayList<>();
        for (String op : Schedule.defaultOrder(g).operators()) {
            if (op.equals("c4/grad_weight")) {
                expected.add("c3");
            }
            if (op.equals("c2/grad_weight")) {
                expected.add("c1");
            }
            expected.add(op);
        }
        assertEquals(expected, p.schedule().operators());
        CheckReport r = PlanChecker.check(g, p);
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(2, r.traffic().recomputes());
        assertEquals(30 + 10, r.traffic().recomputeCost());
        assertEquals(0, r.traffic().nonCompulsory());
        assertEquals(p.traffic(), r.traffic());
        // a3: created by c4's producer run c3 at 2, dropped after c4 (3), recomputed at c3's rerun.
        int rerun = expected.lastIndexOf("c3");
        assertEquals(List.of(Segment.created(2, 3, p.segmentsOf("a3").get(0).offset()),
                Segment.recomputed(rerun, rerun + 1, p.segmentsOf("a3").get(1).offset())), p.segmentsOf("a3"));
        assertEquals("0 + 0.5 x 40 = 20", Objective.of(r.traffic(), 0.5).toString());
    }

    @Test
    void checkpointSqrtKeepsEveryRoundedRootthActivation() {
        Graph g = train();
        // Three saved activations: k = round(sqrt(3)) = 2, the same plan as every 2nd.
        assertEquals(plan("default/checkpoint-2/greedy/tflite", g, 100_000, 1).schedule(),
                plan("default/checkpoint-sqrt/greedy/tflite", g, 100_000, 1).schedule());
        // Every 1st keeps all: nothing reruns.
        assertEquals(0, plan("default/checkpoint-1/belady/tflite", g, 100_000, 1).traffic().recomputes());
    }

    /**
     * The chain's saved activations a1, a2, a3 (made by convolutions of costs 10, 20, 30, 100 bytes each), cheapest
     * per byte first: with k lambda = 1, a1 (10), a2 (20 + a1's 10) and a3 (30 + 30) all cost less than their 100
     * bytes to make again; with 2, a3 would cost 120; with 4, a2 would cost 120 even with a1 kept; with 16, a1 160.
     */
    @Test
    void cheapCheckpointingDropsWhatIsCheapToMakeAgain() {
        Graph g = train();
        int a1 = g.tensorIndex("a1");
        int a2 = g.tensorIndex("a2");
        int a3 = g.tensorIndex("a3");
        assertEquals(bits(a1, a2, a3), Recomputation.cheap(1, 1).cheapDrops(g));
        assertEquals(bits(a1, a2), Recomputation.cheap(2, 1).cheapDrops(g));
        assertEquals(bits(a1), Recomputation.cheap(4, 1).cheapDrops(g));
        assertEquals(bits(a1), Recomputation.cheap(1, 4).cheapDrops(g)); // only k lambda counts
        assertEquals(bits(), Recomputation.cheap(16, 1).cheapDrops(g));
        assertEquals(bits(), Recomputation.checkpoint(2, 1).cheapDrops(g));
        // k = 8 drops what k = 4 drops: not offered again.
        assertEquals(List.of("default/checkpoint-cheap-1/belady/tflite", "default/checkpoint-cheap-2/belady/tflite",
                "default/checkpoint-cheap-4/belady/tflite"),
                Schemes.cheap(g, 1, "default").stream().map(Scheme::name).toList());
        assertThrows(IllegalArgumentException.class, () -> Recomputation.cheap(0, 1));

        // k = 2 with room: a2 is made again for c3's weight gradient, a1 (dropped, c2's input) first, and a1 stays
        // on chip for c2's weight gradient. No traffic, the reruns' costs 10 + 20.
        Plan p = plan("default/checkpoint-cheap-2/belady/tflite", g, 100_000, 1);
        CheckReport r = PlanChecker.check(g, p);
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(0, r.traffic().nonCompulsory());
        assertEquals(2, r.traffic().recomputes());
        assertEquals(30, r.traffic().recomputeCost());
        assertEquals(r.traffic(), p.traffic());
    }

    /**
     * A drop that makes an earlier one too dear is refused: on the chain with convolutions of costs 95, 10, 50, 10,
     * a2 (0.1 per byte) is dropped first (10, a1 kept), then a3 (50 + a2's 10); a1 (0.95 per byte, 95 alone) would
     * raise a2's chain to 105, above its 100 bytes (and a3's to 155), so a1 stays.
     */
    @Test
    void cheapCheckpointingKeepsAnInputWhoseDropMakesAnEarlierDropTooDear() {
        Graph.Builder b = Graph.builder("chain4b").alignment(1).activation("x", 100);
        String in = "x";
        long[] costs = {95, 10, 50, 10};
        for (int i = 1; i <= 4; i++) {
            b.parameter("w" + i, 8).activation("a" + i, 100);
            b.operator(new Operator("c" + i, "conv", List.of(in, "w" + i), List.of("a" + i), costs[i - 1]));
            in = "a" + i;
        }
        Graph g = TrainingGraphs.of(b.output("a4").build(), TrainingGraphs.Step.BACKWARD)
                .withSetting(TensorSetting.ACTIVATIONS);
        assertEquals(bits(g.tensorIndex("a2"), g.tensorIndex("a3")), Recomputation.cheap(1, 1).cheapDrops(g));
        // At half the weight a1's drop leaves a2's chain at 52.5 and a3's at 77.5: all three go.
        assertEquals(bits(g.tensorIndex("a1"), g.tensorIndex("a2"), g.tensorIndex("a3")),
                Recomputation.cheap(1, 0.5).cheapDrops(g));
    }

    /**
     * The rungs on any order and policy: the same rungs as on the default order by name (K = 1, 2, 4 on the chain of
     * {@link #cheapCheckpointingDropsWhatIsCheapToMakeAgain}), named for the scheduler and policy, each plan checked;
     * none where nothing is cheap enough.
     */
    @Test
    void cheapRungsRunOnAGivenOrderWithEitherPolicy() {
        Graph g = train();
        Schedule order = Schedule.defaultOrder(g);
        dev.memplan.baselines.scheduling.GivenOrderScheduler given =
                new dev.memplan.baselines.scheduling.GivenOrderScheduler(order, "spill-only-order");
        for (ReplacementPolicy policy : List.of(new BeladyReplacement(), new GreedyReplacement())) {
            List<Scheme> rungs = Schemes.cheap(g, 1, given, policy);
            assertEquals(List.of(1, 2, 4).stream().map(k -> "spill-only-order/checkpoint-cheap-" + k + "/"
                    + policy.name() + "/tflite").toList(), rungs.stream().map(Scheme::name).toList());
            for (int i = 0; i < rungs.size(); i++) {
                assertEquals(Schemes.cheap(g, 1, "default").get(i).recomputation(), rungs.get(i).recomputation());
                Plan p = rungs.get(i).plan(g, TensorSetting.ACTIVATIONS, 100_000, Limits.DEFAULT);
                CheckReport r = PlanChecker.check(g, p);
                assertTrue(r.valid(), r.violations().toString());
                assertTrue(r.traffic().recomputes() > 0);
            }
            assertEquals(List.of(), Schemes.cheap(g, 16, given, policy));
        }
    }

    /**
     * A rerun whose input must itself be made again runs each operator once: s = add(a, x), a = c1(x) read by the
     * add alone (no backward reads it), s read by c2's weight gradient. Checkpointing by price drops s (its chain
     * c1 + add, 11, is below its 100 bytes); before c2's weight gradient the simulator reruns c1, then the add. It
     * used to end c1's fresh copy of a at once (a's last read is in the forward pass), so the add's rerun found it
     * lost and ran c1 a second time: 3 reruns of cost 21 where 2 of cost 11 do.
     */
    @Test
    void aRerunsOwnLostInputIsMadeOnceAndKeptForIt() {
        Graph.Builder b = Graph.builder("addchain").alignment(1).activation("x", 100)
                .parameter("w1", 8).activation("a", 100).activation("s", 100)
                .parameter("w2", 8).activation("y", 100);
        b.operator(new Operator("c1", "conv", List.of("x", "w1"), List.of("a"), 10L));
        b.operator(new Operator("sum", "add", List.of("a", "x"), List.of("s"), 1L));
        b.operator(new Operator("c2", "conv", List.of("s", "w2"), List.of("y"), 50L));
        Graph g = TrainingGraphs.of(b.output("y").build(), TrainingGraphs.Step.BACKWARD)
                .withSetting(TensorSetting.ACTIVATIONS);
        assertEquals(bits(g.tensorIndex("s")), Recomputation.cheap(1, 1).cheapDrops(g));
        for (String policy : List.of("belady", "greedy")) {
            Plan p = plan("default/checkpoint-cheap-1/" + policy + "/tflite", g, 100_000, 1);
            CheckReport r = PlanChecker.check(g, p);
            assertTrue(r.valid(), r.violations().toString());
            List<String> reruns = new ArrayList<>();
            boolean[] again = p.schedule().recomputeRuns();
            for (int i = 0; i < again.length; i++) {
                if (again[i]) {
                    reruns.add(p.schedule().operators().get(i));
                }
            }
            assertEquals(List.of("c1", "sum"), reruns, policy);
            assertEquals(11, r.traffic().recomputeCost(), policy);
            assertEquals(0, r.traffic().nonCompulsory(), policy);
        }
    }

    private static java.util.BitSet bits(int... set) {
        java.util.BitSet b = new java.util.BitSet();
        for (int i : set) {
            b.set(i);
        }
        return b;
    }

    @Test
    void dtrRecomputesWhenRecomputingIsFreeAndTheBudgetIsShort() {
        Graph g = train();
        long mr = Budgets.minimumFeasible(g);
        long mh = Budgets.halfway(mr, Budgets.footprint(g, Schedule.defaultOrder(g)));
        Plan p = plan("default/dtr/belady/tflite", g, mh, 0);
        CheckReport r = PlanChecker.check(g, p);
        assertTrue(r.valid(), r.violations().toString());
        assertTrue(r.traffic().recomputes() > 0, r.traffic().toString());
        Plan spill = new Scheme(new DefaultScheduler(), new BeladyReplacement(), AddressRule.TFLITE)
                .plan(g, TensorSetting.ACTIVATIONS, mh, Limits.DEFAULT);
        assertTrue(r.traffic().nonCompulsory() < spill.traffic().nonCompulsory(),
                r.traffic() + " vs spill only " + spill.traffic());
    }

    @Test
    void dtrWithRoomOrDearRecomputeIsTheSpillOnlyScheme() {
        Graph g = train();
        long peak = Budgets.footprint(g, Schedule.defaultOrder(g));
        long mr = Budgets.minimumFeasible(g);
        for (long budget : List.of(peak, mr)) {
            for (String policy : List.of("belady", "greedy")) {
                double lambda = budget == peak ? 0 : 1e12;
                Plan p = plan("default/dtr/" + policy + "/tflite", g, budget, lambda);
                Plan spill = Schemes.byName("default/" + policy + "/tflite")
                        .plan(g, TensorSetting.ACTIVATIONS, budget, Limits.DEFAULT);
                assertEquals(0, p.traffic().recomputes());
                assertEquals(spill.traffic(), p.traffic());
                assertEquals(spill.schedule(), p.schedule());
                assertEquals(spill.segments(), p.segments());
            }
        }
    }

    @Test
    void schemesAreOfferedOnlyWhereTheyApply() {
        List<String> training = Schemes.recompute(train(), 64).stream().map(Scheme::name).toList();
        assertEquals(List.of("default/checkpoint-sqrt/belady/tflite", "default/checkpoint-sqrt/greedy/tflite",
                "default/dtr/belady/tflite", "default/dtr/greedy/tflite"), training);
        // At lambda 1 the chain's convolutions cost less than their outputs' loads: the rungs of checkpointing by
        // price that drop something new come after (cheapCheckpointingDropsWhatIsCheapToMakeAgain).
        assertEquals(List.of("default/checkpoint-sqrt/belady/tflite", "default/checkpoint-sqrt/greedy/tflite",
                "default/dtr/belady/tflite", "default/dtr/greedy/tflite", "default/checkpoint-cheap-1/belady/tflite",
                "default/checkpoint-cheap-2/belady/tflite", "default/checkpoint-cheap-4/belady/tflite"),
                Schemes.recompute(train(), 1).stream().map(Scheme::name).toList());
        List<String> forward = Schemes.recompute(chain(), 1).stream().map(Scheme::name).toList();
        assertEquals(List.of("default/dtr/belady/tflite", "default/dtr/greedy/tflite"), forward);
        assertTrue(Schemes.all().stream().noneMatch(n -> n.contains("dtr") || n.contains("checkpoint")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Schemes.recomputing("default/checkpoint-0/belady/tflite", 1));
        assertTrue(e.getMessage().startsWith("unknown recompute scheme 'default/checkpoint-0/belady/tflite'"));
        assertThrows(IllegalArgumentException.class, () -> Schemes.recomputing("default/dtr/belady/minimalloc", 1));
        assertThrows(IllegalArgumentException.class, () -> Schemes.recomputing("default/dtr/belady/tflite", -1));
    }

    /**
     * The smallest training graphs where a recomputed copy found no room: on generated graphs of 3 to 6 forward
     * operators (gen:layered:N:SEED:train) at M_R, DTR and checkpointing by price needed two dropped tensors back for
     * one backward operator, and the rerun making the second had no room beside the first (e.g.
     * gen:layered:3:10:train, 7 operators, DTR at lambda 0: "run 9 of 'op1/backward' needs a recomputed copy, and
     * its tensors do not fit where they are"). Now every scheme gives a plan the checker accepts there, and some of
     * them move a recomputed copy through host memory (a loaded segment after a recomputed one, no created segment
     * in between).
     */
    @Test
    void aRecomputedCopyWithoutRoomMovesThroughHostMemoryInsteadOfFailing() {
        int plans = 0;
        int throughHost = 0;
        for (int n = 3; n <= 6; n++) {
            for (long seed = 1; seed <= 25; seed++) {
                Graph full = TrainingGraphs.of(dev.memplan.datasets.RandomGraphs.layered(seed, n, 3, 4, 4096, true),
                        TrainingGraphs.Step.BACKWARD);
                Graph g = full.withSetting(TensorSetting.ACTIVATIONS);
                long mr = Budgets.minimumFeasible(g);
                for (double lambda : List.of(0.0, 0.00390625, 1.0)) {
                    for (Scheme scheme : Schemes.recompute(g, lambda)) {
                        String where = "gen:layered:" + n + ":" + seed + ":train " + scheme.name() + " lambda "
                                + lambda;
                        Plan p = scheme.plan(full, TensorSetting.ACTIVATIONS, mr, Limits.DEFAULT);
                        CheckReport r = PlanChecker.check(g, p);
                        assertTrue(r.valid(), where + ": " + r.violations().stream().limit(3).toList());
                        plans++;
                        if (loadedAfterRecomputed(p)) {
                            throughHost++;
                        }
                    }
                }
            }
        }
        assertTrue(plans >= 4 * 25 * 3 * 4, "plans " + plans);
        assertTrue(throughHost > 0, "no plan moved a recomputed copy through host memory");
    }

    /** Whether some tensor's loaded segment follows a recomputed one of it. */
    private static boolean loadedAfterRecomputed(Plan p) {
        for (List<Segment> segments : p.segments().values()) {
            boolean recomputed = false;
            for (Segment s : segments.stream().sorted(java.util.Comparator.comparingInt(Segment::start)).toList()) {
                if (s.origin() == dev.memplan.model.Origin.RECOMPUTED) {
                    recomputed = true;
                } else if (recomputed && s.origin() == dev.memplan.model.Origin.LOADED) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Every scheme on the ten human-designed networks' training graphs (activations), at M_R and at M_H taken
     * halfway to the default order's peak (the schedule the schemes run), with recompute free and at 1 byte per
     * cost unit: each plan the checker accepts, with its recomputes and cost as the checker counts them. Every
     * scheme has a plan at both budgets: until session 28, 28 of them at M_R had none (a recomputed copy an operator
     * needs found no room beside the reruns making its other inputs); the simulator's last try now moves such a
     * copy through host memory.
     */
    @Test
    void everyRecomputeSchemeGivesACheckedPlanOnTheHumanZooTrainingGraphs() {
        int plans = 0;
        for (String name : Zoo.names()) {
            if (Zoo.entry(name).nas()) {
                continue;
            }
            Graph full = TrainingGraphs.of(Zoo.graph(name), TrainingGraphs.Step.BACKWARD);
            Graph g = full.withSetting(TensorSetting.ACTIVATIONS);
            long mr = Budgets.minimumFeasible(g);
            long mp = Math.max(mr, Budgets.footprint(g, Schedule.defaultOrder(g)));
            for (long budget : List.of(mr, Budgets.halfway(mr, mp))) {
                for (double lambda : List.of(0.0, 1.0)) {
                    for (Scheme scheme : Schemes.recompute(g, lambda)) {
                        String where = name + ":train " + scheme.name() + " at " + (budget == mr ? "M_R" : "M_H")
                                + " lambda " + lambda;
                        Plan p = scheme.plan(full, TensorSetting.ACTIVATIONS, budget, Limits.DEFAULT);
                        plans++;
                        CheckReport r = PlanChecker.check(g, p);
                        assertTrue(r.valid(), where + ": " + r.violations().stream().limit(3).toList());
                        assertEquals(p.schedule().recomputes(), r.traffic().recomputes(), where);
                        assertEquals(r.traffic(), p.traffic(), where);
                        assertTrue(!scheme.name().contains("checkpoint") || r.traffic().recomputes() > 0, where);
                    }
                }
            }
        }
        // 10 graphs x 2 budgets x (4 schemes at lambda 0 and 1, and checkpointing by price's one rung at 0).
        assertEquals(180, plans);
    }
}
