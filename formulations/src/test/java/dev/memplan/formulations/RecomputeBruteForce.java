package dev.memplan.formulations;

import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * An exhaustive oracle for the objective with recomputation (tests only): the minimum of non-compulsory traffic
 * + lambda x recompute cost (memory-model.md, "Recomputation") over every valid plan whose schedule has n to n + k
 * runs. Written from memory-model.md, sharing nothing with the program it judges; every plan it returns is
 * re-checked by {@link PlanChecker}.
 *
 * <h2>The search</h2>
 *
 * <ol>
 *   <li>Every run sequence: each run's operator has every input's producer already run once; an operator named
 *       again is a recompute (at most k of them); every operator runs; lengths n .. n + k.</li>
 *   <li>For one sequence, every tensor's <i>touches</i> are fixed: its producer's first run (creation), its
 *       producer's later runs (recomputes: a recomputed segment starts there, rule {@code siblings}) and the runs
 *       that read it. Between two consecutive touches the tensor either stays resident (one segment spans both)
 *       or its segment ends at the earlier touch and a new one starts at the later: a load when the later touch
 *       is a read, the recomputed segment when it is a recompute (then it must end: {@code through-recompute}).
 *       A host tensor's first touch is a read, which loads it (the compulsory load). Every choice is tried.</li>
 *   <li>The choices whose cost plus lambda x the sequence's recompute cost is below the best known are taken in
 *       order of cost; the first whose resident bytes fit B at every timestep and whose segments pack (every
 *       aligned offset in [0, B - size] tried for every segment, by backtracking) is the sequence's optimum.</li>
 * </ol>
 *
 * <p>Why only these segments (the <i>normal</i> plans of {@link BruteForce}, P1 and P2): in any valid plan,
 * delete each loaded segment that contains no read, start every other loaded segment at its first read and end
 * every segment at the last touch it contains. Every rule still holds (segments only lose timesteps that are no
 * touch, a recomputed segment keeps its own timestep, origins and offsets are unchanged, a loaded segment still
 * starts after the created one ends), the schedule and recomputes are unchanged and the traffic does not grow
 * (it counts loaded segments). What is left is exactly one of the choices of step 2.
 *
 * <p>Limits: meant for 3-5 operators, k <= 2, sizes up to about 6 and budgets up to a few dozen bytes.
 */
final class RecomputeBruteForce {

    private RecomputeBruteForce() {
    }

    /** An optimum: its objective parts and a checked plan that attains them. */
    record Optimum(double objective, long traffic, long recomputeCost, Plan plan) {
    }

    /**
     * The least traffic + lambda x recompute cost over every valid plan with at most {@code extraRuns}
     * recomputes, or null when no plan exists.
     *
     * @throws AssertionError when the optimal plan fails the checker or its checked figures differ
     */
    static Optimum minimum(Graph graph, TensorSetting setting, long budget, int extraRuns, double lambda) {
        return minimum(graph, setting, budget, extraRuns, lambda, o -> true);
    }

    /** As {@link #minimum(Graph, TensorSetting, long, int, double)}, over the plans that rerun only these operators. */
    static Optimum minimum(Graph graph, TensorSetting setting, long budget, int extraRuns, double lambda,
                           IntPredicate mayRerun) {
        Graph g = graph.withSetting(setting);
        if (budget < Budgets.minimumRequired(g)) {
            return null;
        }
        Search search = new Search(g, budget, lambda, mayRerun);
        search.sequences(new ArrayList<>(), new boolean[g.operatorCount()], 0, extraRuns);
        if (search.bestPlan == null) {
            return null;
        }
        Plan plan = new Plan(g.name(), setting, budget, search.bestPlan.schedule(), search.bestPlan.segments(),
                null, null);
        CheckReport report = PlanChecker.check(g, plan);
        if (!report.valid()) {
            throw new AssertionError("RecomputeBruteForce built an invalid plan: " + report.violations() + "\n" + plan);
        }
        if (report.traffic().nonCompulsory() != search.bestTraffic
                || report.traffic().recomputeCost() != search.bestRecompute) {
            throw new AssertionError("RecomputeBruteForce's figures " + search.bestTraffic + ", "
                    + search.bestRecompute + " differ from the checked " + report.traffic());
        }
        return new Optimum(search.best, search.bestTraffic, search.bestRecompute, plan);
    }

    /** Where a tensor is touched in one run sequence. */
    private enum Touch { CREATE, RECOMPUTE, READ }

    /** One segment without its offset. */
    private record Interval(int tensor, int start, int end, Origin origin) {
    }

    private static final class Search {
        private final Graph g;
        private final long budget;
        private final double lambda;
        private final IntPredicate mayRerun;
        private double best = Double.POSITIVE_INFINITY;
        private long bestTraffic;
        private long bestRecompute;
        private Plan bestPlan;

        Search(Graph g, long budget, double lambda, IntPredicate mayRerun) {
            this.g = g;
            this.budget = budget;
            this.lambda = lambda;
            this.mayRerun = mayRerun;
        }

        /** Step 1: every run sequence, each judged when every operator has run. */
        void sequences(List<Integer> runs, boolean[] ran, int recomputes, int extraRuns) {
            int n = g.operatorCount();
            boolean all = true;
            for (boolean r : ran) {
                all &= r;
            }
            if (all) {
                judge(runs);
            }
            for (int o = 0; o < n; o++) {
                boolean again = ran[o];
                if (again && (recomputes == extraRuns || !mayRerun.test(o))) {
                    continue;
                }
                boolean ready = true;
                for (int x : g.inputs(o)) {
                    int p = g.producer(x);
                    ready &= p < 0 || ran[p];
                }
                if (!ready) {
                    continue;
                }
                runs.add(o);
                ran[o] = true;
                sequences(runs, ran, recomputes + (again ? 1 : 0), extraRuns);
                ran[o] = again;
                runs.remove(runs.size() - 1);
            }
        }

        /** Steps 2 and 3 for one sequence. */
        private void judge(List<Integer> runs) {
            int length = runs.size();
            long recomputeCost = 0;
            boolean[] seen = new boolean[g.operatorCount()];
            for (int o : runs) {
                if (seen[o]) {
                    recomputeCost += g.cost(o);
                }
                seen[o] = true;
            }
            double base = lambda * recomputeCost;
            if (base >= best) {
                return;
            }
            List<List<int[]>> touches = new ArrayList<>();
            for (int a = 0; a < g.tensorCount(); a++) {
                List<int[]> list = new ArrayList<>();
                boolean created = false;
                for (int t = 0; t < length; t++) {
                    int o = runs.get(t);
                    if (!g.isHost(a) && g.producer(a) == o) {
                        list.add(new int[] {t, (created ? Touch.RECOMPUTE : Touch.CREATE).ordinal()});
                        created = true;
                    }
                    for (int x : g.inputs(o)) {
                        if (x == a) {
                            list.add(new int[] {t, Touch.READ.ordinal()});
                        }
                    }
                }
                touches.add(list);
            }
            List<Choice> choices = new ArrayList<>();
            choose(touches, 0, new ArrayList<>(), 0, base, choices);
            choices.sort(Comparator.comparingLong(Choice::traffic));
            for (Choice c : choices) {
                if (base + c.traffic() >= best) {
                    return;
                }
                long[] bytes = new long[length];
                for (Interval s : c.intervals()) {
                    for (int t = s.start(); t <= s.end(); t++) {
                        bytes[t] += g.size(s.tensor());
                    }
                }
                boolean fits = true;
                for (long b : bytes) {
                    fits &= b <= budget;
                }
                if (!fits) {
                    continue;
                }
                List<Interval> order = new ArrayList<>(c.intervals());
                order.sort(Comparator.comparingInt(Interval::start).thenComparingLong(s -> -g.size(s.tensor())));
                long[] offsets = new long[order.size()];
                if (pack(order, offsets, 0)) {
                    best = base + c.traffic();
                    bestTraffic = c.traffic();
                    bestRecompute = recomputeCost;
                    bestPlan = plan(runs, order, offsets);
                    return;
                }
            }
        }

        /** One choice of step 2: its segments and their traffic. */
        private record Choice(List<Interval> intervals, long traffic) {
        }

        /** Every bridge-or-break choice for tensors a.. (step 2), pruned by the best known objective. */
        private void choose(List<List<int[]>> touches, int a, List<Interval> sofar, long traffic, double base,
                            List<Choice> out) {
            if (base + traffic >= best) {
                return;
            }
            if (a == touches.size()) {
                out.add(new Choice(List.copyOf(sofar), traffic));
                return;
            }
            List<int[]> list = touches.get(a);
            if (list.isEmpty()) {
                choose(touches, a + 1, sofar, traffic, base, out);
                return;
            }
            List<Integer> free = new ArrayList<>();
            for (int i = 1; i < list.size(); i++) {
                if (list.get(i)[1] == Touch.READ.ordinal()) {
                    free.add(i);
                }
            }
            for (int bits = 0; bits < 1 << free.size(); bits++) {
                boolean[] breakBefore = new boolean[list.size()];
                for (int j = 0; j < free.size(); j++) {
                    breakBefore[free.get(j)] = (bits >> j & 1) != 0;
                }
                List<Interval> mine = new ArrayList<>();
                int loads = 0;
                int start = list.get(0)[0];
                Origin origin = list.get(0)[1] == Touch.CREATE.ordinal() ? Origin.CREATED : Origin.LOADED;
                if (origin == Origin.LOADED) {
                    loads++;
                }
                for (int i = 1; i < list.size(); i++) {
                    Touch kind = Touch.values()[list.get(i)[1]];
                    if (kind == Touch.RECOMPUTE || breakBefore[i]) {
                        mine.add(new Interval(a, start, list.get(i - 1)[0], origin));
                        start = list.get(i)[0];
                        origin = kind == Touch.RECOMPUTE ? Origin.RECOMPUTED : Origin.LOADED;
                        if (kind == Touch.READ) {
                            loads++;
                        }
                    }
                }
                mine.add(new Interval(a, start, list.get(list.size() - 1)[0], origin));
                long size = g.size(a);
                long cost;
                if (g.isHost(a)) {
                    cost = size * (loads - 1);
                } else {
                    cost = size * loads + (loads > 0 && !g.isGraphOutput(a) ? size : 0);
                }
                int mark = sofar.size();
                sofar.addAll(mine);
                choose(touches, a + 1, sofar, traffic + cost, base, out);
                while (sofar.size() > mark) {
                    sofar.remove(sofar.size() - 1);
                }
            }
        }

        /** Step 3's packing: every aligned offset for segment i, against the placed ones it meets in time. */
        private boolean pack(List<Interval> order, long[] offsets, int i) {
            if (i == order.size()) {
                return true;
            }
            Interval s = order.get(i);
            long size = g.size(s.tensor());
            for (long off = 0; off + size <= budget; off += g.alignment()) {
                boolean free = true;
                for (int j = 0; j < i && free; j++) {
                    Interval o = order.get(j);
                    boolean meet = o.start() <= s.end() && s.start() <= o.end();
                    free = !meet || offsets[j] >= off + size || off >= offsets[j] + g.size(o.tensor());
                }
                if (free) {
                    offsets[i] = off;
                    if (pack(order, offsets, i + 1)) {
                        return true;
                    }
                }
            }
            return false;
        }

        private Plan plan(List<Integer> runs, List<Interval> order, long[] offsets) {
            Map<String, List<Segment>> segments = new LinkedHashMap<>();
            for (int a = 0; a < g.tensorCount(); a++) {
                List<Segment> list = new ArrayList<>();
                for (int i = 0; i < order.size(); i++) {
                    Interval s = order.get(i);
                    if (s.tensor() == a) {
                        list.add(new Segment(s.start(), s.end(), offsets[i], s.origin()));
                    }
                }
                list.sort(Comparator.comparingInt(Segment::start));
                if (!list.isEmpty()) {
                    segments.put(g.tensor(a).name(), list);
                }
            }
            int[] order2 = runs.stream().mapToInt(Integer::intValue).toArray();
            return new Plan(g.name(), TensorSetting.ALL, budget, Schedule.of(g, order2), segments, null, null);
        }
    }
}
