package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaFormulation;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.ForcedTraffic;
import dev.memplan.formulations.cosma.OperatorWindows;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Operator;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A new order for the operators a plan runs at timesteps [a, b], chosen knowing what the rest of the plan keeps on
 * chip meanwhile: the window's program is COSMA's program without addresses, with a free schedule, over the
 * window's operators, where
 * <ul>
 *   <li>the room at each timestep is the budget less the bytes of the tensors the window neither reads nor writes
 *       that the plan keeps resident then (the rest of the plan stays as it is; their addresses are ignored);
 *   <li>a tensor written before the window and read in it is a host tensor of the window (its first load free);
 *   <li>every tensor read after the window (written in it or before) is read by one more operator, the window's
 *       exit, so that the window pays for evicting it as the whole plan would (spill and load) instead of writing
 *       it out for free as an output.
 * </ul>
 * A window solved alone with the whole budget (as a part is) sees none of this: at M_H every window of PNASNet
 * has traffic 0 on its own, so its order never changes, while the whole plan pays for what those windows leave
 * resident. The order this proposes is only a candidate: the caller decides it with the whole graph's
 * fixed-schedule program, and keeps the result only when its checked traffic is lower.
 */
final class WindowOrder {
    /** The exit operator's name and its output's (a one-unit token: an operator writes at least one tensor). */
    private static final String EXIT = "memplan.window.exit";

    private WindowOrder() {
    }

    /**
     * @param order the plan's operators by timestep (graph indices)
     * @param backend the MILP back-end of the window's program
     * @param limits the window's time limit
     * @return the names of the operators at a..b in a new order, or null (no solution in time, or the same order)
     */
    static List<String> propose(Graph g, TensorSetting setting, Plan plan, int[] order, int a, int b,
                                Backend backend, Limits limits) {
        int w = b - a + 1;
        BitSet inside = new BitSet(g.operatorCount());
        int[] position = new int[g.operatorCount()];
        for (int t = 0; t < order.length; t++) {
            position[order[t]] = t;
        }
        java.util.stream.IntStream.rangeClosed(a, b).forEach(t -> inside.set(order[t]));
        Set<Integer> tensors = tensorsOf(g, order, a, b);
        long[] capacity = capacity(g, plan, a, b, tensors);
        Contents c = contents(g, tensors, inside, position, b);
        List<String> outputs = c.outputs();
        List<String> readLater = c.readLater();
        List<Operator> ops = new ArrayList<>();
        for (int t = a; t <= b; t++) {
            ops.add(g.operator(order[t]));
        }
        String exit = unique(g, EXIT);
        long token = g.alignment();
        boolean withExit = !readLater.isEmpty() && c.laterBytes() + token <= capacity[w];
        long[] room;
        if (withExit) {
            c.tensors().add(Tensor.activation(exit, token));
            ops.add(new Operator(exit, readLater, List.of(exit)));
            room = capacity;
        } else {
            // Too much is read later to hold at once after the window (the plan evicts some of it): those tensors
            // are outputs of the window, as for a part.
            for (String name : readLater) {
                if (SubGraph.producedInside(g, g.tensorIndex(name), inside) && !outputs.contains(name)) {
                    outputs.add(name);
                }
            }
            room = Arrays.copyOf(capacity, w);
        }
        Graph window = new Graph(g.name() + "/context" + a, g.alignment(), c.tensors(), ops, outputs);
        CosmaFormulation f;
        try {
            // The forced round trips at the budget are forced with less room too: valid, and they keep the
            // relaxation's bound from going negative (host tensors loaded by fractions).
            ForcedTraffic forced = ForcedTraffic.of(window, OperatorWindows.of(window, null, true), plan.budget());
            f = new CosmaFormulation(window, setting, plan.budget(), CosmaObjective.TRAFFIC, null, false, true, forced,
                    room);
        } catch (IllegalArgumentException e) {
            return null;
        }
        Plan hint = hint(g, window, plan, position, a, b, withExit ? exit : null, readLater);
        if (hint != null) {
            f.hint(hint);
        }
        SolverResult r = Solvers.create(backend).solve(f.model(), limits);
        if (r.values() == null) {
            return null;
        }
        List<String> proposed = new ArrayList<>(f.schedule(r).operators());
        proposed.remove(exit);
        return changed(g, order, a, b, proposed);
    }

    /** The proposed order of timesteps a..b, or null when it is the plan's own. */
    private static List<String> changed(Graph g, int[] order, int a, int b, List<String> proposed) {
        List<String> now = new ArrayList<>();
        for (int t = a; t <= b; t++) {
            now.add(g.operator(order[t]).name());
        }
        return proposed.equals(now) ? null : proposed;
    }

    /** The tensors the window's operators read or write, in order of first use. */
    private static Set<Integer> tensorsOf(Graph g, int[] order, int a, int b) {
        Set<Integer> tensors = new LinkedHashSet<>();
        for (int t = a; t <= b; t++) {
            for (int x : g.inputs(order[t])) {
                tensors.add(x);
            }
            for (int x : g.outputs(order[t])) {
                tensors.add(x);
            }
        }
        return tensors;
    }

    /**
     * The room left at each of the window's timesteps and at the one after it: the budget less the bytes the rest
     * of the plan keeps on chip then.
     */
    private static long[] capacity(Graph g, Plan plan, int a, int b, Set<Integer> tensors) {
        int w = b - a + 1;
        BitSet windowTensor = new BitSet(g.tensorCount());
        tensors.forEach(windowTensor::set);
        long[] background = new long[w + 1];
        plan.segments().forEach((name, list) -> {
            int x = g.tensorIndex(name);
            if (x < 0 || windowTensor.get(x)) {
                return;
            }
            for (Segment s : list) {
                for (int t = Math.max(a, s.start()); t <= Math.min(b + 1, s.end()); t++) {
                    background[t - a] += g.size(x);
                }
            }
        });
        long[] capacity = new long[w + 1];
        for (int i = 0; i <= w; i++) {
            capacity[i] = Math.max(0, plan.budget() - background[i]);
        }
        return capacity;
    }

    /** The window graph's tensors, its graph outputs, and the tensors read after it (with their padded bytes). */
    private record Contents(List<Tensor> tensors, List<String> outputs, List<String> readLater, long laterBytes) {
    }

    private static Contents contents(Graph g, Set<Integer> tensors, BitSet inside, int[] position, int b) {
        List<Tensor> list = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        List<String> readLater = new ArrayList<>();
        long laterBytes = 0;
        for (int x : tensors) {
            Tensor tensor = SubGraph.seenFrom(g, x, inside);
            list.add(tensor);
            if (SubGraph.producedInside(g, x, inside) && g.isGraphOutput(x)) {
                outputs.add(tensor.name());
            }
            for (int c : g.consumers(x)) {
                if (position[c] > b) {
                    readLater.add(tensor.name());
                    laterBytes += padded(g, g.size(x));
                    break;
                }
            }
        }
        return new Contents(list, outputs, readLater, laterBytes);
    }

    /**
     * The plan's timesteps a..b as a plan of the window's graph (its exit, if any, at the end), for the program to
     * start from: segments clipped to the window, a tensor resident when the window begins loaded then, a tensor
     * read later kept to the exit when the plan keeps it past the window and loaded there otherwise.
     */
    private static Plan hint(Graph g, Graph window, Plan plan, int[] position, int a, int b, String exit,
                             List<String> readLater) {
        int w = b - a + 1;
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int x = 0; x < window.tensorCount(); x++) {
            String name = window.tensor(x).name();
            if (name.equals(exit)) {
                segments.put(name, List.of(Segment.created(w, w, 0)));
                continue;
            }
            int gx = g.tensorIndex(name);
            boolean toExit = exit != null && readLater.contains(name);
            int lastUse = g.producer(gx) >= 0 && position[g.producer(gx)] >= a ? position[g.producer(gx)] - a : -1;
            for (int c : g.consumers(gx)) {
                if (position[c] >= a && position[c] <= b) {
                    lastUse = Math.max(lastUse, position[c] - a);
                }
            }
            if (toExit) {
                lastUse = w;
            }
            List<Segment> kept = new ArrayList<>();
            boolean atExit = false;
            for (Segment seg : plan.segmentsOf(name)) {
                int start = Math.max(seg.start(), a) - a;
                int end = Math.min(seg.end(), b) - a;
                if (toExit && seg.start() <= b && seg.end() > b) {
                    end = w;
                }
                end = Math.min(end, lastUse);
                if (start > end) {
                    continue;
                }
                atExit |= end == w;
                kept.add(new Segment(start, end, 0, seg.start() < a ? Origin.LOADED : seg.origin()));
            }
            if (toExit && !atExit) {
                kept.add(Segment.loaded(w, w, 0));
            }
            if (!kept.isEmpty()) {
                segments.put(name, kept);
            }
        }
        List<String> names = new ArrayList<>(plan.schedule().operators().subList(a, b + 1));
        if (exit != null) {
            names.add(exit);
        }
        // Offsets are 0: the program has no addresses, and the hint is only a start (not checked as a plan).
        return PlanSplicer.withoutIdleLoads(window, new Plan(window.name(), plan.setting(), plan.budget(),
                new Schedule(names), segments, null, null));
    }

    private static long padded(Graph g, long size) {
        long align = g.alignment();
        return (size + align - 1) / align * align;
    }

    /** A name no operator or tensor of the graph has. */
    private static String unique(Graph g, String name) {
        String n = name;
        for (int k = 1; g.operatorIndex(n) >= 0 || g.tensorIndex(n) >= 0; k++) {
            n = name + "." + k;
        }
        return n;
    }
}
