package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
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
 * One test per rule of memory-model.md, each with the smallest plan that breaks it, on a two-operator chain:
 * timestep 0 runs a (reads x:10 and w:5, writes y:20), timestep 1 runs b (reads y, writes z:30, a graph output).
 */
class PlanCheckerTest {
    private static final Graph CHAIN = Graph.builder("chain").activation("x", 10).parameter("w", 5)
            .activation("y", 20).activation("z", 30)
            .operator("a", List.of("x", "w"), List.of("y"))
            .operator("b", List.of("y"), List.of("z"))
            .output("z").build();
    private static final Schedule AB = new Schedule(List.of("a", "b"));

    /** The valid plan: nothing spilled. */
    private static Map<String, List<Segment>> valid() {
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 0, 0)));
        s.put("w", List.of(Segment.loaded(0, 0, 10)));
        s.put("y", List.of(Segment.created(0, 1, 15)));
        s.put("z", List.of(Segment.created(1, 1, 35)));
        return s;
    }

    private static CheckReport check(Graph graph, Schedule schedule, long budget, Map<String, List<Segment>> segments) {
        return PlanChecker.check(graph, new Plan(graph.name(), TensorSetting.ALL, budget, schedule, segments, null, null));
    }

    private static CheckReport check(Map<String, List<Segment>> segments) {
        return check(CHAIN, AB, 100, segments);
    }

    private static Set<Rule> rules(CheckReport report) {
        return report.violations().stream().map(Violation::rule).collect(Collectors.toCollection(() -> EnumSet.noneOf(Rule.class)));
    }

    private static Map<String, List<Segment>> with(String tensor, Segment... segments) {
        Map<String, List<Segment>> s = valid();
        s.put(tensor, List.of(segments));
        return s;
    }

    @Test
    void theSamePlanCheckedAgainGetsItsReportAndAnotherPlanItsOwn() {
        Plan plan = new Plan(CHAIN.name(), TensorSetting.ALL, 100, AB, valid(), null, null);
        Plan spilled = new Plan(CHAIN.name(), TensorSetting.ALL, 100, AB,
                with("y", Segment.created(0, 0, 15), Segment.loaded(1, 1, 0)), null, null);
        CheckReport first = PlanChecker.check(CHAIN, plan);
        assertSame(first, PlanChecker.check(CHAIN, plan), "remembered by the plan's identity");
        // An equal plan that is another object, and a plan that differs, are checked anew.
        Plan equal = new Plan(CHAIN.name(), TensorSetting.ALL, 100, AB, valid(), null, null);
        CheckReport again = PlanChecker.check(CHAIN, equal);
        assertNotSame(first, again);
        assertEquals(first, again);
        assertEquals(new Traffic(45, 40, 35, 20), PlanChecker.check(CHAIN, spilled).traffic());
        assertEquals(first, PlanChecker.checkAfresh(CHAIN, plan));
        assertNotSame(first, PlanChecker.checkAfresh(CHAIN, plan));
        // The same plan on another graph (a budget it breaks there) is checked on that graph.
        Graph small = Graph.builder("chain").activation("x", 10).parameter("w", 5)
                .activation("y", 20).activation("z", 30)
                .operator("a", List.of("x", "w"), List.of("y"))
                .operator("b", List.of("y"), List.of("z"))
                .output("z").build();
        assertEquals(first, PlanChecker.check(small, plan));
        assertNotSame(first, PlanChecker.check(small, plan));
    }

    @Test
    void validPlanPassesWithItsFigures() {
        CheckReport r = check(valid());
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(new Traffic(45, 0, 15, 0), r.traffic());
        assertEquals(50, r.peakFootprint());
        assertEquals(65, r.peakAddress());
    }

    @Test
    void spillAndReloadIsValidAndCharged() {
        CheckReport r = check(with("y", Segment.created(0, 0, 15), Segment.loaded(1, 1, 0)));
        assertTrue(r.valid(), r.violations().toString());
        // y (20 bytes) is written out once and loaded once: 40 bytes beyond the compulsory 45.
        assertEquals(new Traffic(45, 40, 35, 20), r.traffic());
    }

    @Test
    void backToBackSegmentsAreAMoveThroughHost() {
        CheckReport r = check(with("y", Segment.created(0, 0, 15), Segment.loaded(1, 1, 15)));
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(40, r.traffic().nonCompulsory());
    }

    @Test
    void graphOutputSpillIsNotChargedButItsLoadIs() {
        Graph g = Graph.builder("out").activation("x", 8).activation("y", 4).activation("z", 2)
                .operator("a", List.of("x"), List.of("y"))
                .operator("n", List.of("x"), List.of("z"))
                .operator("b", List.of("y", "z"), List.of("u")).activation("u", 1).output("y").output("u").build();
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 1, 0)));
        s.put("y", List.of(Segment.created(0, 0, 8), Segment.loaded(2, 2, 0)));
        s.put("z", List.of(Segment.created(1, 2, 12)));
        s.put("u", List.of(Segment.created(2, 2, 4)));
        CheckReport r = check(g, Schedule.defaultOrder(g), 16, s);
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(new Traffic(8 + 4 + 1, 4, 12, 0), r.traffic());
    }

    @Test
    void hostTensorReloadedPaysEachLoadAfterTheFirst() {
        CheckReport r = check(CHAIN, AB, 100, with("x", Segment.loaded(0, 0, 0)));
        assertEquals(0, r.traffic().nonCompulsory());
        Graph twice = Graph.builder("twice").activation("x", 7).activation("y", 1).activation("z", 1)
                .operator("a", List.of("x"), List.of("y")).operator("b", List.of("x", "y"), List.of("z")).build();
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 0, 0), Segment.loaded(1, 1, 1)));
        s.put("y", List.of(Segment.created(0, 1, 8)));
        s.put("z", List.of(Segment.created(1, 1, 0)));
        r = check(twice, Schedule.defaultOrder(twice), 9, s);
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(7, r.traffic().nonCompulsory());
        assertEquals(7, r.traffic().compulsory());
    }

    @Test
    void scheduleMustBeATopologicalPermutation() {
        CheckReport r = check(CHAIN, new Schedule(List.of("b", "a")), 100, valid());
        assertTrue(rules(r).contains(Rule.SCHEDULE));
        assertTrue(r.violations().get(0).message().contains("reads 'y' before its producer 'a'"), r.violations().toString());
        assertEquals(EnumSet.of(Rule.SCHEDULE), rules(check(CHAIN, new Schedule(List.of("a")), 100, valid())));
        // Running a twice is a recompute (RecomputationTest), but b must still run.
        assertTrue(check(CHAIN, new Schedule(List.of("a", "a")), 100, valid()).violations().get(0).message()
                .contains("operator 'b' is not scheduled"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Schedule(List.of("a", "a", "b"))
                .resolve(CHAIN)).getMessage().contains("scheduled twice"));
        assertTrue(check(CHAIN, new Schedule(List.of("a", "ghost")), 100, valid()).violations().get(0).message()
                .contains("unknown operator 'ghost'"));
    }

    @Test
    void unknownTensor() {
        Map<String, List<Segment>> s = valid();
        s.put("ghost", List.of(Segment.loaded(0, 0, 90)));
        CheckReport r = check(s);
        assertEquals(EnumSet.of(Rule.UNKNOWN_TENSOR), rules(r));
        assertEquals(List.of("ghost"), r.violations().get(0).subjects());
    }

    @Test
    void parameterIsUnknownInTheActivationsSetting() {
        Plan plan = new Plan("chain", TensorSetting.ACTIVATIONS, 100, AB, valid(), null, null);
        assertEquals(EnumSet.of(Rule.UNKNOWN_TENSOR), rules(PlanChecker.check(CHAIN, plan)));
        Map<String, List<Segment>> s = valid();
        s.remove("w");
        CheckReport r = PlanChecker.check(CHAIN, new Plan("chain", TensorSetting.ACTIVATIONS, 100, AB, s, null, null));
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(40, r.traffic().compulsory());
    }

    @Test
    void segmentRange() {
        assertTrue(rules(check(with("z", Segment.created(1, 2, 35)))).contains(Rule.SEGMENT_RANGE));
        assertTrue(rules(check(with("z", Segment.created(1, 0, 35)))).contains(Rule.SEGMENT_RANGE));
        assertTrue(rules(check(with("z", Segment.created(1, 1, -1)))).contains(Rule.SEGMENT_RANGE));
    }

    @Test
    void createdAtTheProducerExactlyOnce() {
        CheckReport r = check(with("x", Segment.created(0, 0, 0)));
        assertEquals(EnumSet.of(Rule.CREATED), rules(r));
        assertTrue(r.violations().get(0).message().contains("host tensor 'x'"));
        Map<String, List<Segment>> late = with("y", Segment.created(1, 1, 15));
        late.put("y", List.of(Segment.created(0, 0, 15), Segment.created(1, 1, 15)));
        assertEquals(EnumSet.of(Rule.CREATED), rules(check(late)));
        assertEquals(EnumSet.of(Rule.CREATED, Rule.RESIDENCY), rules(check(with("y"))));
    }

    @Test
    void noSegmentBeforeCreation() {
        CheckReport r = check(with("z", Segment.created(0, 1, 35)));
        assertEquals(EnumSet.of(Rule.CREATED, Rule.BEFORE_CREATION), rules(r));
    }

    @Test
    void loadNeedsAHostCopy() {
        CheckReport r = check(with("z", Segment.loaded(0, 0, 70), Segment.created(1, 1, 35)));
        assertEquals(EnumSet.of(Rule.BEFORE_CREATION, Rule.HOST_COPY), rules(r));
        // Loaded but never created: no host copy either.
        assertEquals(EnumSet.of(Rule.CREATED, Rule.HOST_COPY), rules(check(with("z", Segment.loaded(1, 1, 35)))));
    }

    @Test
    void segmentsOfOneTensorDoNotOverlapInTime() {
        CheckReport r = check(with("x", Segment.loaded(0, 0, 0), Segment.loaded(0, 0, 50)));
        assertEquals(EnumSet.of(Rule.SEGMENT_OVERLAP), rules(r));
        assertEquals(0, r.violations().get(0).timestep());
    }

    @Test
    void everyUseIsResident() {
        CheckReport r = check(with("y", Segment.created(0, 0, 15)));
        assertEquals(EnumSet.of(Rule.RESIDENCY), rules(r));
        Violation v = r.violations().get(0);
        assertEquals(List.of("y"), v.subjects());
        assertEquals(1, v.timestep());
        assertTrue(v.message().contains("read by 'b' at timestep 1"), v.message());
        assertEquals(EnumSet.of(Rule.RESIDENCY), rules(check(with("x"))));
    }

    @Test
    void noSegmentPastTheLastUse() {
        CheckReport r = check(with("x", Segment.loaded(0, 1, 0)));
        assertEquals(EnumSet.of(Rule.PAST_LAST_USE), rules(r));
        assertEquals(1, r.violations().get(0).timestep());
        // A graph output nobody reads lives only at its producer's timestep; so does any unread tensor.
        Graph g = Graph.builder("unread").activation("x", 1).activation("y", 1).activation("z", 1)
                .operator("a", List.of("x"), List.of("y")).operator("b", List.of("x"), List.of("z")).build();
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 1, 0)));
        s.put("y", List.of(Segment.created(0, 1, 1)));
        s.put("z", List.of(Segment.created(1, 1, 2)));
        assertEquals(EnumSet.of(Rule.PAST_LAST_USE), rules(check(g, Schedule.defaultOrder(g), 3, s)));
    }

    @Test
    void budget() {
        CheckReport r = check(with("z", Segment.created(1, 1, 80)));
        assertEquals(EnumSet.of(Rule.BUDGET), rules(r));
        assertEquals(List.of("z"), r.violations().get(0).subjects());
        assertEquals(110, r.peakAddress());
    }

    @Test
    void addressesOfResidentTensorsAreDisjoint() {
        CheckReport r = check(with("z", Segment.created(1, 1, 0)));
        assertEquals(EnumSet.of(Rule.ADDRESS_OVERLAP), rules(r));
        Violation v = r.violations().get(0);
        assertEquals(Set.of("y", "z"), Set.copyOf(v.subjects()));
        assertEquals(1, v.timestep());
        // Touching ranges are fine: y ends at 35 where z begins.
        assertTrue(check(with("z", Segment.created(1, 1, 35))).valid());
    }

    @Test
    void alignment() {
        Graph aligned = Graph.builder("chain").alignment(5).activation("x", 10).parameter("w", 5)
                .activation("y", 20).activation("z", 30)
                .operator("a", List.of("x", "w"), List.of("y")).operator("b", List.of("y"), List.of("z"))
                .output("z").build();
        assertTrue(check(aligned, AB, 100, valid()).valid());
        assertEquals(EnumSet.of(Rule.ALIGNMENT), rules(check(aligned, AB, 100, with("z", Segment.created(1, 1, 36)))));
    }

    @Test
    void reportsEveryViolationNotJustTheFirst() {
        Map<String, List<Segment>> s = with("z", Segment.created(1, 1, 80));
        s.put("x", List.of(Segment.loaded(0, 1, 0)));
        assertEquals(EnumSet.of(Rule.BUDGET, Rule.PAST_LAST_USE), rules(check(s)));
    }

    @Test
    void requireValidNamesTheMakerAsBuggy() {
        Plan bad = new Plan("chain", TensorSetting.ALL, 100, AB, with("y"), null, null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PlanChecker.requireValid(CHAIN, bad, "toy"));
        assertTrue(e.getMessage().startsWith("bug: toy produced a plan"), e.getMessage());
    }
}
