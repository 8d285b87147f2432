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
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Violation;
import dev.memplan.model.io.GraphJson;
import dev.memplan.model.io.PlanJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Plans written by memplan (to memplan-plan/1 text) and judged by the independent {@link ReferenceChecker}
 * get the same verdict, the same broken rules and the same traffic as from the {@link PlanChecker}: valid
 * plans with spills, and plans broken by random edits.
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
            CheckReport ours = PlanChecker.check(graph, plan);
            JsonNode graphJson = JSON.readTree(GraphJson.toJson(graph));
            JsonNode planJson = JSON.readTree(PlanJson.toJson(plan));
            ReferenceChecker.Verdict theirs = ReferenceChecker.check(graphJson, planJson);
            Set<String> ourRules = ours.violations().stream().map(v -> v.rule().id())
                    .collect(Collectors.toCollection(TreeSet::new));
            String context = "round " + round + "\n" + GraphJson.toJson(graph) + "\n" + PlanJson.toJson(plan)
                    + "\nours: " + ours.violations().stream().map(Violation::toString).collect(Collectors.joining("\n"));
            assertEquals(theirs.valid(), ours.valid(), context);
            assertEquals(theirs.brokenRules(), ourRules, context);
            assertEquals(theirs.compulsory(), ours.traffic().compulsory(), context);
            assertEquals(theirs.nonCompulsory(), ours.traffic().nonCompulsory(), context);
            if (ours.valid()) {
                assertEquals(theirs.peakFootprint(), ours.peakFootprint(), context);
                assertEquals(theirs.peakAddress(), ours.peakAddress(), context);
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
