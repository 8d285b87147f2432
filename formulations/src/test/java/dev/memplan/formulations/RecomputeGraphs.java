package dev.memplan.formulations;

import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The small graphs of the recompute tests, in one place for this module's tests and decomposition's
 * (RecomputeOptimalityTest, RecomputeBoundTest, RecomputePipelineTest, RunGraphTest), and the recompute brute force
 * for tests in other modules.
 */
public final class RecomputeGraphs {

    private RecomputeGraphs() {
    }

    /** The random tiny graphs of {@link BruteForceTest}, with a cost of 1 .. 8 per operator. */
    public static Graph tiny(long seed, int operators) {
        Random r = new Random(seed);
        Graph g = BruteForce.randomTinyGraph(r, operators, seed % 2 == 1);
        List<Operator> ops = new ArrayList<>();
        for (Operator o : g.operators()) {
            ops.add(o.withCost(1L + r.nextInt(8)));
        }
        return new Graph(g.name() + seed, g.alignment(), g.tensors(), ops, g.outputs());
    }

    /**
     * A random chain with skips, where recomputing pays: a host input of 1 or 2 bytes, operator i reads the
     * previous output and, half the time, one older tensor (1 .. 6 bytes), costs 1 .. 8; the last output is the
     * graph output.
     */
    public static Graph skips(long seed, int operators) {
        Random r = new Random(seed);
        Graph.Builder b = Graph.builder("skips" + seed).activation("x", 1 + r.nextInt(2));
        List<String> made = new ArrayList<>(List.of("x"));
        for (int o = 0; o < operators; o++) {
            List<String> inputs = new ArrayList<>(List.of(made.get(made.size() - 1)));
            if (made.size() > 2 && r.nextBoolean()) {
                inputs.add(made.get(r.nextInt(made.size() - 2)));
            }
            String out = "t" + o;
            b.activation(out, 1 + r.nextInt(6));
            b.operator(new Operator("op" + o, null, inputs, List.of(out), 1L + r.nextInt(8)));
            made.add(out);
        }
        return b.output(made.get(made.size() - 1)).build();
    }

    /**
     * x:1 -> a (cost 1) -> y:4 -> b -> z:4 -> c -> u:4; y, u -> d -> v:1: y is read at 1 and 3. At budget 9 spill
     * only pays 8 bytes (y written and read back), running a again pays cost 1 and no traffic.
     */
    public static Graph readEarlyAndLate() {
        return Graph.builder("early-late")
                .activation("x", 1).activation("y", 4).activation("z", 4).activation("u", 4).activation("v", 1)
                .operator(new Operator("a", null, List.of("x"), List.of("y"), 1L))
                .operator(new Operator("b", null, List.of("y"), List.of("z"), 5L))
                .operator(new Operator("c", null, List.of("z"), List.of("u"), 5L))
                .operator(new Operator("d", null, List.of("y", "u"), List.of("v"), 5L))
                .output("v").build();
    }

    /**
     * The least traffic + lambda x recompute cost over every valid plan with at most {@code extraRuns} recomputes
     * ({@link RecomputeBruteForce}), or null when no plan exists. For 3-5 operators and k <= 2.
     */
    public static Double minimumObjective(Graph graph, TensorSetting setting, long budget, int extraRuns,
                                          double lambda) {
        RecomputeBruteForce.Optimum o = RecomputeBruteForce.minimum(graph, setting, budget, extraRuns, lambda);
        return o == null ? null : o.objective();
    }
}
