package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.model.Graph;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * What the spill-only bounds' searches ({@link StemBound}) charge for a tensor that leaves the chip and comes back:
 * a price per load after the first (a host tensor's first load is free) and a spill price, charged once, for a tensor
 * an operator writes that is not a graph output. Indexed like the tensors of the graph they were built for.
 *
 * <p><b>Spill only</b> ({@link #spillOnly}): a load costs the tensor's size, its spill the size again: the
 * non-compulsory traffic itself.
 *
 * <p><b>With reruns</b> ({@link #withReruns}): prices under which the least priced traffic of the plans that run
 * every operator once is a lower bound on the objective traffic + lambda x recompute cost of <em>every</em> plan
 * (memory-model.md, "Recomputation"), reruns allowed. Let P be any plan.
 * <ol>
 *   <li>By {@link Reruns#mayPay}, P can be turned into a plan P' that pays no more and reruns only operators p with
 *       lambda c(p) below the bytes of p's outputs plus their spill charges.</li>
 *   <li>In P', drop every rerun's timestep (and with it its need for its inputs), and let each output of the rerun
 *       that is read later come back as a "load" at its next read: at every timestep left the same tensors or fewer
 *       are resident. What is left runs every operator once, as a spill-only plan does, except that some loads have
 *       no host copy behind them.</li>
 *   <li>Between two consecutive events of a tensor x (its write, its reads) where x is off chip for a while, P'
 *       brings x back by a segment that starts after that while: a load, which costs size(x), after one spill of
 *       size(x) unless x is a graph output; or a rerun of x's producer p. Distinct whiles of x are closed by distinct
 *       segments. A rerun of p costs lambda c(p), which is the sum over p's outputs y of the share
 *       lambda c(p) size(y) / out(p) (out(p): the bytes of all of p's outputs), so it pays at least the shares of the
 *       outputs it brings back.</li>
 * </ol>
 * So price an output x of an operator p that may pay by one load at r(x) = min(size(x), share(x)), its spill at 0
 * (P' may never write it out), and every other tensor as spill only (P' never reruns its producer, so every while off
 * chip is closed by a real load, and the host copy was paid for). Then what P' pays is at least what the priced
 * spill-only plan of step 2 pays: each load costs at least its price, each rerun at least the prices of the loads it
 * stands for, and a spill is charged only where P' paid one. Any spill-only bound whose argument holds for every
 * nonnegative load and spill price per tensor (StemBound's does: it matches each tensor the search drops with a while
 * the plan holds it off chip, and charges no price twice the plan pays once) is then, with these prices, a bound on
 * the objective over every plan. Lambda 0 makes every rerun free: every operator with a positive output may pay,
 * and its outputs cost nothing to bring back.
 *
 * <p><b>Exact arithmetic.</b> Prices are whole bytes: a share is computed exactly (lambda in {@link BigDecimal}) and
 * rounded down, so no price is ever above the real cost it stands for, and the bound stays at most the least
 * objective when lambda is a fraction.
 *
 * @param load per tensor, the price of a load that is not its first (host tensor) or of a return after a write
 * @param spill per tensor, the price of its first departure when an operator writes it and it is not a graph output
 * @param rerun per tensor, its share of a rerun of its producer rounded down when that operator may pay
 *     ({@link Reruns#mayPay}), else -1: a bound that looks at one moment ({@link PeakBound}) weighs it against a
 *     real load and spill, and against what the rerun's inputs need
 */
record TrafficPrices(long[] load, long[] spill, long[] rerun) {

    /** The non-compulsory traffic: a load costs the size, a spill the size again; no reruns. */
    static TrafficPrices spillOnly(Graph g) {
        long[] sizes = new long[g.tensorCount()];
        for (int x = 0; x < sizes.length; x++) {
            sizes[x] = g.size(x);
        }
        long[] none = new long[sizes.length];
        java.util.Arrays.fill(none, -1);
        return new TrafficPrices(sizes, sizes.clone(), none);
    }

    /** The prices of the class comment at recompute weight lambda (>= 0, finite). O(tensors + operators). */
    static TrafficPrices withReruns(Graph g, double lambda) {
        TrafficPrices p = spillOnly(g);
        BigDecimal weight = new BigDecimal(lambda);
        for (int o = 0; o < g.operatorCount(); o++) {
            if (!Reruns.mayPay(g, lambda, o)) {
                continue;
            }
            long out = 0;
            for (int x : g.outputs(o)) {
                out = Math.addExact(out, g.size(x));
            }
            BigDecimal rerun = weight.multiply(BigDecimal.valueOf(g.cost(o)));
            for (int x : g.outputs(o)) {
                BigDecimal share = out == 0 ? BigDecimal.ZERO : rerun.multiply(BigDecimal.valueOf(g.size(x)))
                        .divide(BigDecimal.valueOf(out), 0, RoundingMode.FLOOR);
                p.rerun[x] = share.min(BigDecimal.valueOf(Long.MAX_VALUE / 4)).longValueExact();
                p.load[x] = share.min(BigDecimal.valueOf(g.size(x))).longValueExact();
                p.spill[x] = 0;
            }
        }
        return p;
    }

    /**
     * The prices of a part's tensors ({@link SubGraph}), by name: a tensor keeps its price in the whole graph, also
     * where the part sees it as a host tensor (written by an operator outside the part), since each of its loads in
     * the part stands for a return in the whole graph.
     */
    TrafficPrices on(Graph whole, SubGraph part) {
        Graph s = part.graph();
        long[] l = new long[s.tensorCount()];
        long[] sp = new long[s.tensorCount()];
        long[] r = new long[s.tensorCount()];
        for (int x = 0; x < l.length; x++) {
            int w = whole.tensorIndex(s.tensor(x).name());
            l[x] = load[w];
            sp[x] = spill[w];
            r[x] = rerun[w];
        }
        return new TrafficPrices(l, sp, r);
    }
}
