package dev.memplan.model.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Operator;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Rule;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Violation;
import dev.memplan.model.io.GraphJson;
import dev.memplan.model.io.PlanJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Plans written by memplan (to memplan-plan/1 or /2 text) and judged by the independent {@link ReferenceChecker}
 * get the same verdict, the same broken rules and the same traffic as from the {@link PlanChecker}: valid
 * plans with spills, valid plans with recomputes, and both broken by random edits.
 */
class CrossCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void sameVerdictAndTrafficOnValidAndBrokenPlans() throws Exception {
        Random random = new Random(20261121);
        int valid = 0;
        int invalid = 0;
        Set<String> rulesSeen = new TreeSet<>();
        for (int round = 0; round < 600; round++) {
            Graph graph = randomGraph(random, 2 + random.nextInt(6));
            TensorSetting setting = random.nextBoolean() ? TensorSetting.ALL : TensorSetting.ACTIVATIONS;
            Graph inSetting = graph.withSetting(setting);
            long budget = Budgets.minimumFeasible(inSetting) + random.nextInt(40);
            Plan plan = new JustInTimePlanner().plan(graph, setting, budget, Limits.DEFAULT);
            plan = keepSomeTensorsLonger(plan, inSetting, random);
            int edits = round % 4 == 0 ? 0 : 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                plan = edit(plan, inSetting, random);
            }
            Set<String> ourRules = sameVerdict(graph, plan, "round " + round);
            if (ourRules.isEmpty()) {
                valid++;
            } else {
                invalid++;
            }
            rulesSeen.addAll(ourRules);
        }
        assertTrue(valid >= 100, "valid plans: " + valid);
        assertTrue(invalid >= 100, "invalid plans: " + invalid);
        assertTrue(rulesSeen.size() >= 10, "rules exercised: " + rulesSeen);
    }

    @Test
    void sameVerdictAndTrafficOnPlansWithRecomputes() throws Exception {
        Random random = new Random(20261126);
        int valid = 0;
        int recomputing = 0;
        int invalid = 0;
        Set<String> rulesSeen = new TreeSet<>();
        for (int round = 0; round < 600; round++) {
            Graph graph = withSomeCosts(randomGraph(random, 2 + random.nextInt(6)), random);
            TensorSetting setting = random.nextBoolean() ? TensorSetting.ALL : TensorSetting.ACTIVATIONS;
            Graph inSetting = graph.withSetting(setting);
            Plan plan = recomputingPlan(inSetting, setting, random);
            int edits = round % 4 == 0 ? 0 : 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                plan = random.nextBoolean() ? edit(plan, inSetting, random) : editRecompute(plan, inSetting, random);
            }
            Set<String> ourRules = sameVerdict(graph, plan, "round " + round);
            if (ourRules.isEmpty()) {
                valid++;
                recomputing += plan.schedule().recomputes() > 0 ? 1 : 0;
            } else {
                assertTrue(edits > 0, "the generator made a broken plan in round " + round + ": " + ourRules);
                invalid++;
            }
            rulesSeen.addAll(ourRules);
        }
        assertTrue(valid >= 150, "valid plans: " + valid);
        assertTrue(recomputing >= 150, "valid plans with recomputes: " + recomputing);
        assertTrue(invalid >= 150, "invalid plans: " + invalid);
        for (Rule rule : List.of(Rule.RECOMPUTE_START, Rule.EARLIER_RUN, Rule.SIBLINGS, Rule.THROUGH_RECOMPUTE,
                Rule.RESIDENCY, Rule.PAST_LAST_USE, Rule.HOST_COPY, Rule.SCHEDULE)) {
            assertTrue(rulesSeen.contains(rule.id()), rule.id() + " not exercised: " + rulesSeen);
        }
    }

    /** Checks a plan with both checkers, asserts they agree, and returns the broken rules' ids. */
    private static Set<String> sameVerdict(Graph graph, Plan plan, String where) throws Exception {
        CheckReport ours = PlanChecker.check(graph, plan);
        // Every cost in the file: the reference knows the contract, not memplan's derivation of missing ones.
        JsonNode graphJson = JSON.readTree(GraphJson.toJson(graph.withCosts()));
        JsonNode planJson = JSON.readTree(PlanJson.toJson(plan));
        ReferenceChecker.Verdict theirs = ReferenceChecker.check(graphJson, planJson);
        Set<String> ourRules = ours.violations().stream().map(v -> v.rule().id())
                .collect(Collectors.toCollection(TreeSet::new));
        String context = where + "\n" + GraphJson.toJson(graph) + "\n" + PlanJson.toJson(plan)
                + "\nours: " + ours.violations().stream().map(Violation::toString).collect(Collectors.joining("\n"));
        assertEquals(theirs.valid(), ours.valid(), context);
        assertEquals(theirs.brokenRules(), ourRules, context);
        assertEquals(theirs.compulsory(), ours.traffic().compulsory(), context);
        assertEquals(theirs.nonCompulsory(), ours.traffic().nonCompulsory(), context);
        assertEquals(theirs.recomputes(), ours.traffic().recomputes(), context);
        assertEquals(theirs.recomputeCost(), ours.traffic().recomputeCost(), context);
        if (ours.valid()) {
            assertEquals(theirs.peakFootprint(), ours.peakFootprint(), context);
            assertEquals(theirs.peakAddress(), ours.peakAddress(), context);
        }
        return ourRules;
    }

    /** The graph with a given cost on about half of its operators; the others keep their derived one. */
    private static Graph withSomeCosts(Graph graph, Random random) {
        List<Operator> ops = new ArrayList<>();
        for (Operator op : graph.operators()) {
            ops.add(random.nextBoolean() ? op.withCost((long) random.nextInt(1000)) : op);
        }
        return new Graph(graph.name(), graph.alignment(), graph.tensors(), ops, graph.outputs());
    }

    /**
     * A valid plan with recomputes, built from the contract alone: the default order with one to three extra runs
     * of random operators, each somewhere after the operator's first run. Each run creates (first) or recomputes
     * (later) every output, a segment [t, t]; each read either extends the tensor's latest segment to it (no run
     * of the producer lies between, or the latest segment would be that run's) or loads it again (its created
     * segment has ended, so host memory has a copy). Addresses: first fit, aligned, in a random order.
     */
    static Plan recomputingPlan(Graph graph, TensorSetting setting, Random random) {
        List<String> order = new ArrayList<>(Schedule.defaultOrder(graph).operators());
        int extra = 1 + random.nextInt(3);
        for (int k = 0; k < extra; k++) {
            String name = graph.operator(random.nextInt(graph.operatorCount())).name();
            int first = order.indexOf(name);
            order.add(first + 1 + random.nextInt(order.size() - first), name);
        }
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        Set<String> ran = new HashSet<>();
        for (int t = 0; t < order.size(); t++) {
            int o = graph.operatorIndex(order.get(t));
            boolean first = ran.add(order.get(t));
            for (int out : graph.outputs(o)) {
                segments.computeIfAbsent(graph.tensor(out).name(), k -> new ArrayList<>())
                        .add(first ? Segment.created(t, t, 0) : Segment.recomputed(t, t, 0));
            }
            for (int in : graph.inputs(o)) {
                List<Segment> list = segments.computeIfAbsent(graph.tensor(in).name(), k -> new ArrayList<>());
                if (!list.isEmpty() && random.nextBoolean()) {
                    Segment last = list.get(list.size() - 1);
                    list.set(list.size() - 1, new Segment(last.start(), t, 0, last.origin()));
                } else {
                    list.add(Segment.loaded(t, t, 0));
                }
            }
        }
        List<String> names = new ArrayList<>();
        List<Integer> indices = new ArrayList<>();
        segments.forEach((name, list) -> {
            for (int k = 0; k < list.size(); k++) {
                names.add(name);
                indices.add(k);
            }
        });
        List<Integer> placing = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            placing.add(i);
        }
        Collections.shuffle(placing, random);
        List<Integer> placed = new ArrayList<>();
        long peak = 0;
        for (int i : placing) {
            Segment s = segments.get(names.get(i)).get(indices.get(i));
            long size = graph.size(graph.tensorIndex(names.get(i)));
            List<Long> candidates = new ArrayList<>(List.of(0L));
            for (int j : placed) {
                Segment p = segments.get(names.get(j)).get(indices.get(j));
                candidates.add(Budgets.roundUp(p.offset() + graph.size(graph.tensorIndex(names.get(j))),
                        graph.alignment()));
            }
            Collections.sort(candidates);
            for (long offset : candidates) {
                boolean free = true;
                for (int j : placed) {
                    Segment p = segments.get(names.get(j)).get(indices.get(j));
                    long pSize = graph.size(graph.tensorIndex(names.get(j)));
                    if (p.start() <= s.end() && s.start() <= p.end() && p.offset() < offset + size
                            && offset < p.offset() + pSize) {
                        free = false;
                        break;
                    }
                }
                if (free) {
                    segments.get(names.get(i)).set(indices.get(i), s.at(offset));
                    peak = Math.max(peak, offset + size);
                    break;
                }
            }
            placed.add(i);
        }
        return new Plan(graph.name(), setting, peak + random.nextInt(3), new Schedule(order), segments, null, null);
    }

    /** Edits aimed at the recompute rules: origins, starts, extra runs, copies kept through a recompute. */
    private static Plan editRecompute(Plan plan, Graph graph, Random random) {
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        plan.segments().forEach((k, v) -> segments.put(k, new ArrayList<>(v)));
        List<String> names = new ArrayList<>(segments.keySet());
        String name = names.get(random.nextInt(names.size()));
        List<Segment> list = segments.get(name);
        int k = list.isEmpty() ? -1 : random.nextInt(list.size());
        List<String> order = new ArrayList<>(plan.schedule().operators());
        switch (random.nextInt(5)) {
            case 0 -> {
                if (k >= 0) {
                    Segment s = list.get(k);
                    list.set(k, new Segment(s.start(), s.end(), s.offset(), Origin.RECOMPUTED));
                }
            }
            case 1 -> {
                if (k >= 0) {
                    Segment s = list.get(k);
                    int shift = random.nextBoolean() ? 1 : -1;
                    list.set(k, new Segment(s.start() + shift, s.end() + Math.max(0, shift), s.offset(), s.origin()));
                }
            }
            case 2 -> order.add(random.nextInt(order.size() + 1), graph.operator(random.nextInt(graph.operatorCount()))
                    .name());
            case 3 -> {
                // Keep the copy before a recompute through it: the segment before the recomputed one reaches it.
                for (int i = 1; i < list.size(); i++) {
                    if (list.get(i).origin() == Origin.RECOMPUTED) {
                        Segment before = list.get(i - 1);
                        list.set(i - 1, new Segment(before.start(), list.get(i).start() + random.nextInt(2),
                                before.offset(), before.origin()));
                        if (random.nextBoolean()) {
                            list.remove(i);
                        }
                        break;
                    }
                }
            }
            default -> {
                if (k >= 0 && list.get(k).origin() == Origin.RECOMPUTED) {
                    list.remove(k);
                } else if (k >= 0) {
                    Segment s = list.get(k);
                    list.set(k, new Segment(s.start(), s.end(), s.offset(),
                            s.origin() == Origin.LOADED ? Origin.RECOMPUTED : Origin.LOADED));
                }
            }
        }
        return new Plan(plan.graph(), plan.setting(), plan.budget(), new Schedule(order), segments, null, null);
    }

    /** A random DAG in default order: host inputs, parameters, operators with one or two outputs. */
    static Graph randomGraph(Random random, int operators) {
        Graph.Builder b = Graph.builder("random").alignment(random.nextInt(4) == 0 ? 4 : 1);
        List<String> available = new ArrayList<>();
        int inputs = 1 + random.nextInt(2);
        for (int i = 0; i < inputs; i++) {
            b.activation("in" + i, 1 + random.nextInt(16));
            available.add("in" + i);
        }
        List<String> produced = new ArrayList<>();
        for (int o = 0; o < operators; o++) {
            List<String> reads = new ArrayList<>();
            int fanIn = 1 + random.nextInt(Math.min(3, available.size()));
            for (int k = 0; k < fanIn; k++) {
                String t = available.get(random.nextInt(available.size()));
                if (!reads.contains(t)) {
                    reads.add(t);
                }
            }
            if (random.nextInt(3) == 0) {
                b.parameter("w" + o, 1 + random.nextInt(8));
                reads.add("w" + o);
            }
            List<String> writes = new ArrayList<>();
            int fanOut = random.nextInt(4) == 0 ? 2 : 1;
            for (int k = 0; k < fanOut; k++) {
                String t = "t" + o + "_" + k;
                b.activation(t, 1 + random.nextInt(16));
                writes.add(t);
            }
            b.operator("op" + o, reads, writes);
            available.addAll(writes);
            produced.addAll(writes);
        }
        b.output(produced.get(produced.size() - 1));
        if (produced.size() > 2 && random.nextBoolean()) {
            b.output(produced.get(random.nextInt(produced.size() - 1)));
        }
        return b.build();
    }

    /**
     * Instead of being reloaded, some produced tensors stay resident from creation to their next use, each
     * moved to a fresh address range on top of the budget (which grows to make room): valid plans with a mix
     * of kept and reloaded tensors.
     */
    private static Plan keepSomeTensorsLonger(Plan plan, Graph graph, Random random) {
        Map<String, List<Segment>> segments = new LinkedHashMap<>(plan.segments());
        long budget = plan.budget();
        for (String name : new ArrayList<>(segments.keySet())) {
            List<Segment> list = segments.get(name);
            if (list.size() >= 2 && list.get(0).origin() == Origin.CREATED && random.nextBoolean()) {
                long offset = Budgets.roundUp(budget, graph.alignment());
                budget = offset + graph.size(graph.tensorIndex(name));
                List<Segment> merged = new ArrayList<>();
                merged.add(Segment.created(list.get(0).start(), list.get(1).end(), offset));
                merged.addAll(list.subList(2, list.size()));
                segments.put(name, merged);
            }
        }
        return new Plan(plan.graph(), plan.setting(), budget, plan.schedule(), segments, null, null);
    }

    private static Plan edit(Plan plan, Graph graph, Random random) {
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        plan.segments().forEach((k, v) -> segments.put(k, new ArrayList<>(v)));
        List<String> names = new ArrayList<>(segments.keySet());
        String name = names.get(random.nextInt(names.size()));
        List<Segment> list = segments.get(name);
        int n = graph.operatorCount();
        int k = list.isEmpty() ? -1 : random.nextInt(list.size());
        Schedule schedule = plan.schedule();
        long budget = plan.budget();
        switch (random.nextInt(10)) {
            case 0 -> {
                if (k >= 0) {
                    list.set(k, list.get(k).at(random.nextInt((int) Math.max(1, budget))));
                }
            }
            case 1 -> {
                if (k >= 0) {
                    Segment s = list.get(k);
                    list.set(k, new Segment(s.start(), s.end() + 1 + random.nextInt(2), s.offset(), s.origin()));
                }
            }
            case 2 -> {
                if (k >= 0) {
                    Segment s = list.get(k);
                    list.set(k, new Segment(s.start() - random.nextInt(2), s.end() - random.nextInt(2), s.offset(), s.origin()));
                }
            }
            case 3 -> {
                if (k >= 0) {
                    list.remove(k);
                }
            }
            case 4 -> {
                if (k >= 0) {
                    Segment s = list.get(k);
                    list.set(k, new Segment(s.start(), s.end(), s.offset(),
                            s.origin() == Origin.CREATED ? Origin.LOADED : Origin.CREATED));
                }
            }
            case 5 -> {
                int t = random.nextInt(n);
                list.add(new Segment(t, t + random.nextInt(2), random.nextInt((int) Math.max(1, budget)),
                        random.nextBoolean() ? Origin.LOADED : Origin.CREATED));
            }
            case 6 -> {
                List<String> order = new ArrayList<>(schedule.operators());
                Collections.swap(order, random.nextInt(n), random.nextInt(n));
                schedule = new Schedule(order);
            }
            case 7 -> budget = Math.max(1, budget - 1 - random.nextInt(8));
            case 8 -> segments.put("ghost", List.of(Segment.loaded(0, 0, 0)));
            default -> {
                if (k >= 0) {
                    list.set(k, list.get(k).at(list.get(k).offset() + 1 + random.nextInt(3)));
                }
            }
        }
        return new Plan(plan.graph(), plan.setting(), budget, schedule, segments, null, null);
    }
}
