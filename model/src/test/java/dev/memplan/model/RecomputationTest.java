package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One test per rule of memory-model.md, "Recomputation", each with the smallest plan that breaks it. The graph:
 * a (cost 7) reads x:4, a host tensor, and writes y:8 and its sibling s:2, which nobody reads; b reads y and
 * writes z:16; c reads y and z and writes u:1, the graph output. The schedule a, b, a, c recomputes y (and s) at timestep 2
 * instead of keeping y from 0 to 3.
 */
class RecomputationTest {
    private static final Graph G = Graph.builder("recompute").activation("x", 4).activation("y", 8)
            .activation("s", 2).activation("z", 16).activation("u", 1)
            .operator(new Operator("a", null, List.of("x"), List.of("y", "s"), 7L))
            .operator("b", List.of("y"), List.of("z"))
            .operator("c", List.of("y", "z"), List.of("u"))
            .output("u").build();
    private static final Schedule RUNS = new Schedule(List.of("a", "b", "a", "c"));
    private static final long BUDGET = 32;

    /**
     * The valid plan. Addresses: t0 x[0,4) y[4,12) s[12,14); t1 x y z[16,32); t2 x, y and s made again at their
     * old addresses, z; t3 y z u[0,1).
     */
    private static Map<String, List<Segment>> valid() {
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 2, 0)));
        s.put("y", List.of(Segment.created(0, 1, 4), Segment.recomputed(2, 3, 4)));
        s.put("s", List.of(Segment.created(0, 0, 12), Segment.recomputed(2, 2, 12)));
        s.put("z", List.of(Segment.created(1, 3, 16)));
        s.put("u", List.of(Segment.created(3, 3, 0)));
        return s;
    }

    private static Map<String, List<Segment>> with(String tensor, Segment... segments) {
        Map<String, List<Segment>> s = valid();
        s.put(tensor, List.of(segments));
        return s;
    }

    private static CheckReport check(Schedule schedule, Map<String, List<Segment>> segments) {
        return PlanChecker.check(G, new Plan(G.name(), TensorSetting.ALL, BUDGET, schedule, segments, null, null));
    }

    private static CheckReport check(Map<String, List<Segment>> segments) {
        return check(RUNS, segments);
    }

    private static Set<Rule> rules(CheckReport report) {
        return report.violations().stream().map(Violation::rule)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Rule.class)));
    }

    private static Violation only(CheckReport report, Rule rule) {
        List<Violation> found = report.violations().stream().filter(v -> v.rule() == rule).toList();
        assertEquals(1, found.size(), report.violations().toString());
        return found.get(0);
    }

    @Test
    void validPlanWithARecompute() {
        CheckReport r = check(valid());
        assertTrue(r.valid(), r.violations().toString());
        // Nothing moves through host memory beyond x's compulsory load and u's compulsory write.
        assertEquals(new Traffic(5, 0, 4, 0, 1, 7), r.traffic());
        assertEquals(4 + 8 + 2 + 16, r.peakFootprint());
        assertEquals(32, r.peakAddress());
        // The figures check prints: the recomputes among them, since the plan has one.
        Plan p = new Plan(G.name(), TensorSetting.ALL, BUDGET, RUNS, valid(), null, null);
        Map<String, String> figures = new java.util.LinkedHashMap<>();
        r.figures(G, p).forEach(row -> figures.put(row[0], row[1]));
        assertEquals(List.of("graph", "budget", "compulsory", "non-compulsory", "loads", "spills", "recomputes",
                "recompute cost", "peak footprint", "peak address"), List.copyOf(figures.keySet()));
        assertEquals(Long.toString(BUDGET), figures.get("budget"));
        assertEquals("1", figures.get("recomputes"));
        assertEquals("7", figures.get("recompute cost"));
        assertEquals("32", figures.get("peak address"));
        assertTrue(figures.get("graph").endsWith(" tensors, setting all)"), figures.get("graph"));
    }

    @Test
    void everyRunBeyondTheFirstIsARecomputeAndCosts() {
        // a runs three times: two recomputes; the second recompute at 3 makes y and s again, c then reads y at 4.
        Schedule thrice = new Schedule(List.of("a", "b", "a", "a", "c"));
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 3, 0)));
        s.put("y", List.of(Segment.created(0, 1, 4), Segment.recomputed(2, 2, 4), Segment.recomputed(3, 4, 4)));
        s.put("s", List.of(Segment.created(0, 0, 12), Segment.recomputed(2, 2, 12), Segment.recomputed(3, 3, 12)));
        s.put("z", List.of(Segment.created(1, 4, 16)));
        s.put("u", List.of(Segment.created(4, 4, 0)));
        CheckReport r = check(thrice, s);
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(2, r.traffic().recomputes());
        assertEquals(14, r.traffic().recomputeCost());
        assertEquals(2, thrice.recomputes());
        assertArrayEquals(new boolean[] {false, false, true, true, false}, thrice.recomputeRuns());
    }

    @Test
    void aRunMayNotReadBeforeItsProducersFirstRun() {
        CheckReport r = check(new Schedule(List.of("b", "a", "a", "c")), valid());
        assertTrue(r.violations().get(0).message().contains("'b' reads 'y' before its producer 'a' runs"),
                r.violations().toString());
        assertTrue(check(new Schedule(List.of("a", "b", "a")), valid()).violations().stream()
                .anyMatch(v -> v.rule() == Rule.SCHEDULE && v.message().contains("operator 'c' is not scheduled")));
    }

    @Test
    void recomputeStartsAtARunOfTheProducer() {
        // A host tensor has no producer to run again.
        CheckReport host = check(with("x", Segment.loaded(0, 0, 0), Segment.recomputed(2, 2, 0)));
        assertEquals(EnumSet.of(Rule.RECOMPUTE_START), rules(host));
        assertTrue(host.violations().get(0).message().contains("host tensor 'x' has a recomputed segment"));
        // s made again at 3, where c runs, and so not at 2, where a runs again.
        CheckReport late = check(with("s", Segment.created(0, 0, 12), Segment.recomputed(3, 3, 12)));
        assertEquals(EnumSet.of(Rule.RECOMPUTE_START, Rule.SIBLINGS), rules(late));
        Violation v = only(late, Rule.RECOMPUTE_START);
        assertEquals(3, v.timestep());
        assertTrue(v.message().contains("where 'c' runs, not its producer 'a'"), v.message());
    }

    @Test
    void recomputeNeedsAnEarlierRun() {
        // z is made by b's only run: that run creates, it does not recompute.
        CheckReport r = check(with("z", Segment.recomputed(1, 3, 16)));
        assertEquals(EnumSet.of(Rule.CREATED, Rule.EARLIER_RUN), rules(r));
        assertTrue(only(r, Rule.EARLIER_RUN).message().contains("a recompute needs an earlier run"));
    }

    @Test
    void aRecomputeMakesAllItsOutputs() {
        // s, which nobody reads, is still written by a's second run: the segment [2, 2].
        CheckReport r = check(with("s", Segment.created(0, 0, 12)));
        assertEquals(EnumSet.of(Rule.SIBLINGS), rules(r));
        Violation v = r.violations().get(0);
        assertEquals(List.of("s"), v.subjects());
        assertEquals(2, v.timestep());
    }

    @Test
    void aRecomputeMakesANewCopyItDoesNotExtendOne() {
        // y kept from 0 through the recompute at 2: the recompute has no copy of its own to make.
        CheckReport r = check(with("y", Segment.created(0, 3, 4)));
        assertEquals(EnumSet.of(Rule.SIBLINGS, Rule.THROUGH_RECOMPUTE), rules(r));
        assertEquals(2, only(r, Rule.THROUGH_RECOMPUTE).timestep());
        // Kept and made again: the two copies overlap in time (and here in addresses).
        assertEquals(EnumSet.of(Rule.SEGMENT_OVERLAP, Rule.THROUGH_RECOMPUTE, Rule.ADDRESS_OVERLAP),
                rules(check(with("y", Segment.created(0, 2, 4), Segment.recomputed(2, 3, 4)))));
        // Evicted at 1 and made again at 2, back to back: legal.
        assertTrue(check(valid()).valid());
    }

    @Test
    void everyRunsReadsAreResident() {
        // a's second run reads x at 2.
        CheckReport r = check(with("x", Segment.loaded(0, 0, 0)));
        assertEquals(EnumSet.of(Rule.RESIDENCY), rules(r));
        assertEquals(2, r.violations().get(0).timestep());
        assertTrue(r.violations().get(0).message().contains("read by 'a' at timestep 2"));
    }

    @Test
    void noSegmentPastTheLastUseOfTheWholeSchedule() {
        // x is read last by a's second run at 2; s is read by nobody, so its recomputed copy lives at 2 only.
        assertEquals(EnumSet.of(Rule.PAST_LAST_USE, Rule.ADDRESS_OVERLAP),
                rules(check(with("x", Segment.loaded(0, 3, 0)))));
        CheckReport r = check(with("s", Segment.created(0, 0, 12), Segment.recomputed(2, 3, 12)));
        assertEquals(EnumSet.of(Rule.PAST_LAST_USE), rules(r));
        assertTrue(r.violations().get(0).message().contains("last use at timestep 2"), r.violations().toString());
    }

    @Test
    void budgetAndAddressesOverAllRuns() {
        assertEquals(EnumSet.of(Rule.BUDGET), rules(check(with("y", Segment.created(0, 1, 4),
                Segment.recomputed(2, 3, 32)))));
        CheckReport r = check(with("y", Segment.created(0, 1, 4), Segment.recomputed(2, 3, 16)));
        assertEquals(EnumSet.of(Rule.ADDRESS_OVERLAP), rules(r));
        assertEquals(Set.of("y", "z"), Set.copyOf(r.violations().get(0).subjects()));
        assertEquals(2, r.violations().get(0).timestep());
    }

    @Test
    void aLoadNeedsAHostCopyAndARecomputeMakesNone() {
        // y made again at 2, then spilled? No: its copy on host is the one written when its created segment ended.
        CheckReport spilled = check(with("y", Segment.created(0, 1, 4), Segment.recomputed(2, 2, 4),
                Segment.loaded(3, 3, 4)));
        assertTrue(spilled.valid(), spilled.violations().toString());
        assertEquals(new Traffic(5, 16, 12, 8, 1, 7), spilled.traffic());
        // Without a created segment there is no host copy to load, recompute or not.
        CheckReport r = check(with("y", Segment.recomputed(2, 2, 4), Segment.loaded(3, 3, 4)));
        assertEquals(EnumSet.of(Rule.CREATED, Rule.HOST_COPY, Rule.RESIDENCY), rules(r));
        assertTrue(only(r, Rule.HOST_COPY).message().contains("a recompute makes none"));
    }

    @Test
    void scheduleOfRuns() {
        assertEquals(0, Schedule.defaultOrder(G).recomputes());
        assertEquals(1, RUNS.recomputes());
        assertEquals(4, RUNS.length());
        assertFalse(Schedule.defaultOrder(G).recomputeRuns()[2]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RUNS.resolve(G));
        assertTrue(e.getMessage().contains("'a' is scheduled twice"), e.getMessage());
    }
}
