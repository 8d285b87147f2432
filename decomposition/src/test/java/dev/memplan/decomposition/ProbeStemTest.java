package dev.memplan.decomposition;

import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import org.junit.jupiter.api.Test;

class ProbeStemTest {
    @Test
    void probe() {
        String net = System.getProperty("probe.net", "r2plus1d18");
        long budget = Long.parseLong(System.getProperty("probe.budget", "146885248"));
        double lambda = Double.parseDouble(System.getProperty("probe.lambda", "1"));
        double units = Double.parseDouble(System.getProperty("probe.units", "12"));
        Graph g = TrainingGraphs.of(Zoo.graph(net), TrainingGraphs.Step.BACKWARD).withSetting(TensorSetting.ACTIVATIONS);
        Limits pl = Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
        PeakBound.Result pr = PeakBound.of(g, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP, pl);
        System.out.println("PROBE peak " + pr + " work " + pl.budget().workUsed());
        Limits ql = Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
        PeakBound.Result qr = PeakBound.of(g, TrafficPrices.withReruns(g, lambda), budget, Long.MAX_VALUE,
                PeakBound.DEFAULT_STATE_CAP, ql);
        System.out.println("PROBE pricedpeak " + qr + " work " + ql.budget().workUsed());
        long forced = dev.memplan.formulations.cosma.ForcedTraffic.of(g,
                dev.memplan.formulations.cosma.OperatorWindows.free(g, true), budget).bound();
        System.out.println("PROBE forced " + forced);
        for (int size : new int[] {}) {
            for (boolean priced : new boolean[] {false, true}) {
                Limits l = Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
                long t0 = System.nanoTime();
                TrafficPrices p = priced ? TrafficPrices.withReruns(g, lambda) : TrafficPrices.spillOnly(g);
                StemBound.Result r = StemBound.of(g, p, budget, size, Long.MAX_VALUE, StemBound.DEFAULT_STATE_CAP, l);
                System.out.println("PROBE " + net + " size " + size + " priced " + priced + " " + r.traffic() + " proven "
                        + r.proven() + " ops " + r.operators() + " states " + r.states() + " work "
                        + l.budget().workUsed() + " s " + (System.nanoTime() - t0) / 1e9);
            }
        }
    }
}
