package dev.memplan.baselines.scheduling;

import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import java.util.Arrays;

/**
 * The default order with its live bytes levelled: a local search that moves one operator at a time to the place in
 * its window (after the producers of its inputs, before the readers of its outputs) where the order's live-byte
 * profile, sorted from the largest timestep down, is lexicographically least (leximax); rounds over every operator
 * in index order until one moves nothing. Each move lowers the profile strictly, so the search ends, and every
 * order it visits is topological. Memplan's own search, no published algorithm.
 *
 * <p>Why: on a training step ({@code NAME:train}) the backward pass's weight gradients are graph outputs, written
 * once and never read on chip, and the deepest layers' are the largest tensors of the step (on resnet50:train
 * megabytes, beside activations of tens of kilobytes). In the default order each runs right after its input
 * gradient, while nearly every saved activation is still live, so each is a peak that replacement pays for by
 * spilling saved activations and loading them again. Moved later, where the saved activations of the early layers
 * have died, it costs nothing. Moving only the highest peak is not enough (the next one becomes the peak), hence the
 * whole sorted profile as the measure. The search knows nothing of the budget: the same order serves every budget.
 * What it gives on the zoo's training graphs: BENCHMARKS.md, "Levelled orders for training steps".
 *
 * <p>Cost: a profile is O(n + m + reads) and its comparison O(n log n); a round tries every position of every
 * operator's window, O(n^2) profiles at worst, at most {@link #MAX_ROUNDS} rounds. Under a work limit it stops,
 * deterministically, after {@link #PROFILES_PER_UNIT} profiles a unit of what is left; under a time limit alone
 * when the clock runs out; the order reached so far is its result.
 */
public final class LeximaxScheduler implements Scheduler {

    /** Profiles tried per unit of work. */
    static final long PROFILES_PER_UNIT = 200_000;

    /** At most this many rounds over the operators. */
    static final int MAX_ROUNDS = 16;

    @Override
    public String name() {
        return "leximax";
    }

    @Override
    public ScheduleResult schedule(Graph graph, Limits limits) {
        long began = System.nanoTime();
        Budget.Meter meter = limits.workMode() ? limits.budget().meter(PROFILES_PER_UNIT) : null;
        int[] order = order(graph, meter, limits.budget());
        return ScheduleResult.asIs(graph, Schedule.of(graph, order), "default order levelled (leximax)", began);
    }

    /**
     * The levelled order of {@code g} (operator indices), from its default order.
     *
     * @param meter counts one step per profile tried and stops the search when the work is spent; null: no work
     *     limit
     * @param budget without a meter, the clock (and Ctrl-C) that stops the search before each profile
     */
    static int[] order(Graph g, Budget.Meter meter, Budget budget) {
        int n = g.operatorCount();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Profile profile = new Profile(g);
        long[] best = profile.sortedOf(order);
        int[] rest = new int[n - 1 < 0 ? 0 : n - 1];
        int[] candidate = new int[n];
        int[] restPos = new int[n];
        for (int round = 0; round < MAX_ROUNDS; round++) {
            boolean moved = false;
            for (int op = 0; op < n; op++) {
                int at = indexOf(order, op);
                // The order without op, and op's window in it: after its inputs' producers, before its outputs'
                // readers.
                System.arraycopy(order, 0, rest, 0, at);
                System.arraycopy(order, at + 1, rest, at, n - 1 - at);
                for (int i = 0; i < n - 1; i++) {
                    restPos[rest[i]] = i;
                }
                int lo = 0;
                for (int x : g.inputs(op)) {
                    int p = g.producer(x);
                    if (p >= 0) {
                        lo = Math.max(lo, restPos[p] + 1);
                    }
                }
                int hi = n - 1;
                for (int y : g.outputs(op)) {
                    for (int c : g.consumers(y)) {
                        if (c != op) {
                            hi = Math.min(hi, restPos[c]);
                        }
                    }
                }
                int bestAt = at;
                for (int j = lo; j <= hi; j++) {
                    if (j == at) {
                        continue;
                    }
                    if (meter != null ? !meter.step() : budget.wallOver()) {
                        return order;
                    }
                    insert(rest, op, j, candidate);
                    long[] sorted = profile.sortedOf(candidate);
                    if (Arrays.compare(sorted, best) > 0) {
                        best = sorted;
                        bestAt = j;
                    }
                }
                if (bestAt != at) {
                    insert(rest, op, bestAt, order);
                    moved = true;
                }
            }
            if (!moved) {
                break;
            }
        }
        if (meter != null) {
            meter.flush();
        }
        return order;
    }

    private static int indexOf(int[] order, int op) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] == op) {
                return i;
            }
        }
        throw new IllegalStateException("operator " + op + " not in the order");
    }

    /** {@code rest} (n - 1 operators) with {@code op} at position {@code j}, into {@code into}. */
    private static void insert(int[] rest, int op, int j, int[] into) {
        System.arraycopy(rest, 0, into, 0, j);
        into[j] = op;
        System.arraycopy(rest, j, into, j + 1, rest.length - j);
    }

    /**
     * The live bytes of an order at each timestep, as {@code Budgets.footprint} counts them (a tensor from its
     * producer, or a host tensor from its first reader, to its last reader; one no operator reads only at its
     * producer's timestep; an unused host tensor not at all), negated and sorted ascending: the largest first, so
     * that a profile is leximax-less than another exactly when {@link Arrays#compare} puts it after it.
     */
    private static final class Profile {
        private final Graph g;
        private final int[] position;
        private final long[] diff;

        Profile(Graph g) {
            this.g = g;
            this.position = new int[g.operatorCount()];
            this.diff = new long[g.operatorCount() + 1];
        }

        long[] sortedOf(int[] order) {
            int n = order.length;
            for (int t = 0; t < n; t++) {
                position[order[t]] = t;
            }
            Arrays.fill(diff, 0);
            for (int x = 0; x < g.tensorCount(); x++) {
                int p = g.producer(x);
                int first = p >= 0 ? position[p] : Integer.MAX_VALUE;
                int last = p >= 0 ? position[p] : -1;
                for (int c : g.consumers(x)) {
                    first = Math.min(first, position[c]);
                    last = Math.max(last, position[c]);
                }
                if (last < 0) {
                    continue;
                }
                diff[first] += g.size(x);
                diff[last + 1] -= g.size(x);
            }
            long[] live = new long[n];
            long sum = 0;
            for (int t = 0; t < n; t++) {
                sum += diff[t];
                live[t] = -sum;
            }
            Arrays.sort(live);
            return live;
        }
    }
}
