package dev.memplan.decomposition;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A case of the bounds' tests against the brute force: a random tiny graph (4 or 5 operators, with parameters in every
 * third round), taken in a tensor setting (both settings when it has parameters), at a budget (its least feasible
 * budget and 1, 3 and 7 bytes above).
 *
 * @param raw the graph as generated
 * @param g the graph in {@code setting}
 */
record TinyCase(int round, Graph raw, TensorSetting setting, Graph g, long budget) {

    /** The cases of {@code rounds} random graphs from {@code seed}, in the order above. */
    static List<TinyCase> random(long seed, int rounds) {
        Random random = new Random(seed);
        List<TinyCase> cases = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            boolean params = round % 3 == 0;
            Graph raw = BruteForceAccess.randomTinyGraph(random, 4 + round % 2, params);
            for (TensorSetting setting : params ? List.of(TensorSetting.ACTIVATIONS, TensorSetting.ALL)
                    : List.of(TensorSetting.ACTIVATIONS)) {
                Graph g = raw.withSetting(setting);
                long mr = Budgets.minimumFeasible(g);
                for (long b : List.of(mr, mr + 1, mr + 3, mr + 7)) {
                    cases.add(new TinyCase(round, raw, setting, g, b));
                }
            }
        }
        return cases;
    }

    /** The brute force's least traffic over every schedule. */
    long optimum() {
        return BruteForceAccess.minTraffic(raw, setting, budget, null);
    }

    /** The case in words, for a failure message. */
    String at() {
        return "round " + round + " " + setting + " at " + budget;
    }
}
