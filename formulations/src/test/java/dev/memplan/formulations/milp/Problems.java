package dev.memplan.formulations.milp;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Small test problems with optima computed by enumeration, independent of any solver. */
final class Problems {

    private Problems() {
    }

    /** A model with the variables whose values make up its known optimum. */
    record Known(Model model, List<Variable> vars, double optimum, double[] optimalValues) {
    }

    /** 0/1 knapsack, maximised; optimum by enumerating all 2^n subsets. */
    static Known knapsack(int n, long seed) {
        Random random = new Random(seed);
        int[] weight = new int[n];
        int[] value = new int[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
            weight[i] = 3 + random.nextInt(30);
            value[i] = 1 + random.nextInt(40);
            total += weight[i];
        }
        int capacity = total / 2;
        Model model = new Model("knapsack-" + n);
        List<Variable> x = new ArrayList<>();
        LinearExpr load = LinearExpr.of();
        LinearExpr profit = LinearExpr.of();
        for (int i = 0; i < n; i++) {
            Variable v = model.binary("take" + i);
            x.add(v);
            load.add(weight[i], v);
            profit.add(value[i], v);
        }
        model.lessOrEqual("capacity", load, capacity);
        model.maximize(profit);

        int best = -1;
        int bestMask = 0;
        for (int mask = 0; mask < (1 << n); mask++) {
            int w = 0;
            int p = 0;
            for (int i = 0; i < n; i++) {
                if ((mask >> i & 1) != 0) {
                    w += weight[i];
                    p += value[i];
                }
            }
            if (w <= capacity && p > best) {
                best = p;
                bestMask = mask;
            }
        }
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = bestMask >> i & 1;
        }
        return new Known(model, x, best, values);
    }

    /** Assignment of n workers to n tasks at least cost, plus a constant; optimum by enumerating permutations. */
    static Known assignment(int n, long seed, int constant) {
        Random random = new Random(seed);
        int[][] cost = new int[n][n];
        for (int[] row : cost) {
            for (int j = 0; j < n; j++) {
                row[j] = 10 + random.nextInt(90);
            }
        }
        Model model = new Model("assignment-" + n);
        Variable[][] x = new Variable[n][n];
        List<Variable> vars = new ArrayList<>();
        LinearExpr total = LinearExpr.of().addConstant(constant);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                x[i][j] = model.binary("w" + i + "t" + j);
                vars.add(x[i][j]);
                total.add(cost[i][j], x[i][j]);
            }
        }
        for (int i = 0; i < n; i++) {
            LinearExpr row = LinearExpr.of();
            LinearExpr column = LinearExpr.of();
            for (int j = 0; j < n; j++) {
                row.add(x[i][j]);
                column.add(x[j][i]);
            }
            model.equal("worker" + i, row, 1);
            model.equal("task" + i, column, 1);
        }
        model.minimize(total);

        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        int[] best = {Integer.MAX_VALUE};
        int[] bestPerm = new int[n];
        permute(perm, 0, cost, best, bestPerm);
        double[] values = new double[n * n];
        for (int i = 0; i < n; i++) {
            values[i * n + bestPerm[i]] = 1;
        }
        return new Known(model, vars, best[0] + constant, values);
    }

    private static void permute(int[] perm, int k, int[][] cost, int[] best, int[] bestPerm) {
        if (k == perm.length) {
            int sum = 0;
            for (int i = 0; i < perm.length; i++) {
                sum += cost[i][perm[i]];
            }
            if (sum < best[0]) {
                best[0] = sum;
                System.arraycopy(perm, 0, bestPerm, 0, perm.length);
            }
            return;
        }
        for (int i = k; i < perm.length; i++) {
            int t = perm[k];
            perm[k] = perm[i];
            perm[i] = t;
            permute(perm, k + 1, cost, best, bestPerm);
            perm[i] = perm[k];
            perm[k] = t;
        }
    }

    /**
     * Multi-dimensional 0/1 knapsack with {@code n} items and {@code m} capacity constraints (each half the total
     * weight): hard enough that a few milliseconds do not suffice.
     */
    static Model multiKnapsack(int n, int m, long seed) {
        Random random = new Random(seed);
        Model model = new Model("mkp-" + n + "x" + m);
        List<Variable> x = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            x.add(model.binary("x" + i));
        }
        for (int k = 0; k < m; k++) {
            LinearExpr load = LinearExpr.of();
            int total = 0;
            for (Variable v : x) {
                int w = 10 + random.nextInt(90);
                load.add(w, v);
                total += w;
            }
            model.lessOrEqual("dim" + k, load, total / 2);
        }
        LinearExpr profit = LinearExpr.of();
        for (Variable v : x) {
            profit.add(10 + random.nextInt(90), v);
        }
        model.maximize(profit);
        return model;
    }

    /**
     * Continuous x in [0, 1.2], integer y in [0, 10], binary b: maximise x + y - 0.5 b subject to
     * 2x + 2y <= 7 and y <= 2 + 5b. The LP relaxation gives 3.4 (b = 0.2); the optimum is 3.2 (x = 1.2, y = 2).
     */
    static Known mixed() {
        Model model = new Model("mixed");
        Variable x = model.continuous("x", 0, 1.2);
        Variable y = model.integer("y", 0, 10);
        Variable b = model.binary("b");
        model.lessOrEqual("budget", LinearExpr.term(2, x).add(2, y), 7);
        model.lessOrEqual("switch", LinearExpr.term(1, y).add(-5, b), 2);
        model.maximize(LinearExpr.term(1, x).add(y).add(-0.5, b));
        return new Known(model, List.of(x, y, b), 3.2, new double[] {1.2, 2, 0});
    }

    /** Bounded integers that cannot satisfy their constraints (parity and a cover that cannot be met). */
    static Model infeasible() {
        Model model = new Model("infeasible");
        Variable a = model.integer("a", 0, 10);
        Variable b = model.integer("b", 0, 10);
        Variable p = model.binary("p");
        Variable q = model.binary("q");
        model.equal("parity", LinearExpr.term(2, a).add(2, b), 5);
        model.greaterOrEqual("cover", LinearExpr.term(1, p).add(q), 1);
        model.minimize(LinearExpr.term(1, a).add(b).add(p).add(q));
        return model;
    }
}
