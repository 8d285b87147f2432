package dev.memplan.decomposition;

import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts the plans of parts together into a plan of the whole graph, in the paper's spill-at-cut form: each part's
 * plan keeps its own addresses and its own timesteps shifted to where the part runs. Every tensor that crosses a
 * cut was an output of one part (its created segment ends inside that part: spilled) and a host tensor of the
 * next (loaded), so the pieces never overlap in time and the result is valid whenever each part's plan is;
 * {@link StateHandover} then keeps what it can on chip across the cuts.
 */
final class PlanSplicer {

    private PlanSplicer() {
    }

    /** The part plans one after the other (each plan's schedule is its part's order). */
    static Plan concatenate(Graph g, TensorSetting setting, long budget, List<Plan> parts) {
        List<String> order = new ArrayList<>();
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        int shift = 0;
        for (Plan p : parts) {
            order.addAll(p.schedule().operators());
            addShifted(segments, p, shift);
            shift += p.schedule().length();
        }
        return new Plan(g.name(), setting, budget, new Schedule(order), sorted(segments), null, null);
    }

    /**
     * The plan with timesteps [a, b] replaced by a window's plan (the window's operators are those the current
     * plan runs at a..b; the window plan's schedule is their new order). Segments that reach into the window are
     * cut at its edges: the piece before stays, the piece after becomes a load, as at a cut between parts.
     * Loaded segments during which the tensor is not read are dropped (they only cost a load).
     */
    static Plan splice(Graph g, Plan current, int a, int b, Plan window) {
        List<String> order = new ArrayList<>(current.schedule().operators().subList(0, a));
        order.addAll(window.schedule().operators());
        order.addAll(current.schedule().operators().subList(b + 1, current.schedule().length()));
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        current.segments().forEach((tensor, list) -> {
            List<Segment> kept = new ArrayList<>();
            for (Segment s : list) {
                if (s.end() < a || s.start() > b) {
                    kept.add(s);
                    continue;
                }
                if (s.start() < a) {
                    kept.add(new Segment(s.start(), a - 1, s.offset(), s.origin()));
                }
                if (s.end() > b) {
                    kept.add(Segment.loaded(b + 1, s.end(), s.offset()));
                }
            }
            if (!kept.isEmpty()) {
                segments.put(tensor, kept);
            }
        });
        addShifted(segments, window, a);
        Plan spliced = new Plan(g.name(), current.setting(), current.budget(), new Schedule(order), sorted(segments),
                null, null);
        return withoutIdleLoads(g, spliced);
    }

    private static void addShifted(Map<String, List<Segment>> segments, Plan p, int shift) {
        p.segments().forEach((tensor, list) -> {
            List<Segment> target = segments.computeIfAbsent(tensor, k -> new ArrayList<>());
            for (Segment s : list) {
                target.add(new Segment(s.start() + shift, s.end() + shift, s.offset(), s.origin()));
            }
        });
    }

    private static Map<String, List<Segment>> sorted(Map<String, List<Segment>> segments) {
        Map<String, List<Segment>> out = new LinkedHashMap<>();
        segments.forEach((tensor, list) -> {
            List<Segment> copy = new ArrayList<>(list);
            copy.sort(Comparator.comparingInt(Segment::start));
            out.put(tensor, copy);
        });
        return out;
    }

    /**
     * The plan's timesteps [a, b] as a plan of the window's sub-graph (whose operators are those the plan runs at
     * a..b, in that order): segments clipped to the window and shifted, a tensor resident when the window begins
     * loaded at its start (it is a host tensor of the window), each segment cut back to the tensor's last use in
     * the window, segments without a use dropped. Null when the result does not pass the checker.
     */
    static Plan restrict(Graph g, Plan plan, int a, int b, SubGraph window) {
        return restrict(g, plan, positions(g, plan), a, b, window);
    }

    /**
     * The same with the plan's timestep of each operator already known ({@link #positions}): resolving the
     * schedule checks the whole order, O(n) for every part (BENCHMARKS.md, "Figures moved out of the Javadoc, continued").
     */
    static Plan restrict(Graph g, Plan plan, int[] position, int a, int b, SubGraph window) {
        Graph w = window.graph();
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int x = 0; x < w.tensorCount(); x++) {
            String name = w.tensor(x).name();
            int gx = g.tensorIndex(name);
            int lastUse = w.isHost(x) ? -1 : position[g.producer(gx)];
            for (int c : g.consumers(gx)) {
                if (position[c] >= a && position[c] <= b) {
                    lastUse = Math.max(lastUse, position[c]);
                }
            }
            List<Segment> kept = new ArrayList<>();
            for (Segment s : plan.segmentsOf(name)) {
                int start = Math.max(s.start(), a);
                int end = Math.min(s.end(), lastUse);
                if (start > end) {
                    continue;
                }
                Origin origin = s.start() < a ? Origin.LOADED : s.origin();
                kept.add(new Segment(start - a, end - a, s.offset(), origin));
            }
            if (!kept.isEmpty()) {
                segments.put(name, kept);
            }
        }
        Plan restricted = withoutIdleLoads(w, new Plan(w.name(), plan.setting(), plan.budget(),
                new dev.memplan.model.Schedule(plan.schedule().operators().subList(a, b + 1)), segments, null, null));
        return dev.memplan.model.PlanChecker.check(w, restricted).valid() ? restricted : null;
    }

    /** The timestep of each operator in a plan. */
    static int[] positions(Graph g, Plan plan) {
        int[] order = plan.schedule().resolve(g);
        int[] position = new int[order.length];
        for (int t = 0; t < order.length; t++) {
            position[order[t]] = t;
        }
        return position;
    }

    /** Drops loaded segments that contain no read of their tensor. */
    static Plan withoutIdleLoads(Graph g, Plan plan) {
        int[] order = plan.schedule().resolve(g);
        int[] position = new int[order.length];
        for (int t = 0; t < order.length; t++) {
            position[order[t]] = t;
        }
        Map<String, List<Segment>> out = new LinkedHashMap<>();
        plan.segments().forEach((tensor, list) -> {
            int x = g.tensorIndex(tensor);
            List<Segment> kept = new ArrayList<>();
            for (Segment s : list) {
                if (s.origin() == Origin.CREATED || x < 0 || readDuring(g, x, position, s)) {
                    kept.add(s);
                }
            }
            if (!kept.isEmpty()) {
                out.put(tensor, kept);
            }
        });
        return plan.withSegments(out);
    }

    private static boolean readDuring(Graph g, int tensor, int[] position, Segment s) {
        for (int c : g.consumers(tensor)) {
            if (s.contains(position[c])) {
                return true;
            }
        }
        return false;
    }
}
