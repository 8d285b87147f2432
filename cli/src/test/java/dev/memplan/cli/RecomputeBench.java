package dev.memplan.cli;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.RecomputeSolver;
import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanResult;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.sweeps.GraphSources;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The joint spill + recompute program on training graphs (not a unit test: minutes per case). For each network,
 * budget and lambda: the spill-only COSMA pipeline ({@code solve}'s, CP-SAT, its own work limit) gives the starting
 * plan, then {@link RecomputeSolver} solves with that plan as its hint under the work limit. One row per case:
 * spill-only traffic, then the program's status, objective, traffic, recomputes, recompute cost, bound, gap, work
 * units and wall seconds.
 *
 * <p>Run from the worktree root after {@code mvn -B -q -DskipTests package -pl cli -am} (which compiles the tests too):
 * {@code java -Xmx3g -cp cli/target/memplan-cli.jar:cli/target/test-classes dev.memplan.cli.RecomputeBench
 * nets=r2plus1d18,resnet50 budgets=M_R,M_H lambdas=0.0009765625,16 k=16 work=60 startWork=60 reruns=forward
 * mode=free}. {@code mode=fixed} fixes the spill-only plan's order of the original operators; {@code off=prune}
 * switches the lifetime windows off.
 */
public final class RecomputeBench {
    private RecomputeBench() {
    }

    public static void main(String[] args) {
        List<String> nets = List.of("r2plus1d18");
        List<String> budgets = List.of("M_R", "M_H");
        List<Double> lambdas = List.of(1.0 / 1024, 16.0);
        int k = 16;
        double work = 60;
        double startWork = 60;
        Reruns reruns = Reruns.FORWARD;
        boolean fixed = false;
        boolean sizes = false;
        Set<Technique> off = EnumSet.noneOf(Technique.class);
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            switch (kv[0]) {
                case "nets" -> nets = List.of(kv[1].split(","));
                case "budgets" -> budgets = List.of(kv[1].split(","));
                case "lambdas" -> lambdas = List.of(kv[1].split(",")).stream().map(Double::parseDouble).toList();
                case "k" -> k = Integer.parseInt(kv[1]);
                case "work" -> work = Double.parseDouble(kv[1]);
                case "startWork" -> startWork = Double.parseDouble(kv[1]);
                case "reruns" -> reruns = Reruns.valueOf(kv[1].toUpperCase(Locale.ROOT));
                case "mode" -> fixed = kv[1].equals("fixed");
                case "sizes" -> sizes = true;
                case "off" -> {
                    for (String t : kv[1].split(",")) {
                        off.add(Technique.parse(t));
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        TensorSetting s = TensorSetting.ACTIVATIONS;
        if (sizes) {
            sizes(nets, budgets, k, lambdas.get(0));
            return;
        }
        System.out.println("network | budget | lambda | n | spill-only traffic (status) | status | objective | traffic"
                + " | recomputes | cost | bound | gap | work | s | start only | notes");
        for (String net : nets) {
            Graph full = GraphSources.graph(net + ":train");
            Graph g = full.withSetting(s);
            MinimumPeakScheduler mpmf = new MinimumPeakScheduler(MinimumPeakScheduler.DEFAULT_BEAM, Backend.CPSAT);
            for (String budgetName : budgets) {
                BudgetChoice chosen = BudgetChoice.resolve(budgetName, g, s, mpmf, limits(startWork));
                CosmaPipeline pipeline = new CosmaPipeline(CosmaPipeline.Settings.of(
                        CosmaSolver.Options.traffic(Backend.CPSAT), mpmf), null);
                PlanResult spill = pipeline.run(full, s, chosen.bytes(), limits(startWork), null).result();
                Plan start = spill.plan();
                for (double lambda : lambdas) {
                    RecomputeSolver.Request request = RecomputeSolver.Request.of(k, lambda, Backend.CPSAT)
                            .withStart(start).withReruns(reruns).without(off)
                            .withSchedule(fixed && start != null ? start.schedule() : null);
                    Limits limits = limits(work);
                    long began = System.nanoTime();
                    RecomputeSolver.Result r = RecomputeSolver.solve(full, s, chosen.bytes(), request, limits);
                    double seconds = (System.nanoTime() - began) / 1e9;
                    List<String> cells = new ArrayList<>();
                    cells.add(net + ":train");
                    cells.add(budgetName + " " + chosen.bytes());
                    cells.add(String.valueOf(lambda));
                    cells.add(String.valueOf(g.operatorCount()));
                    cells.add(spill.check() == null ? "-" : spill.check().traffic().nonCompulsory() + " ("
                            + spill.status() + ")");
                    cells.add(r.status().toString());
                    cells.add(r.objective() == null ? "-" : String.format(Locale.ROOT, "%.1f", r.objective().value()));
                    cells.add(r.objective() == null ? "-" : String.valueOf(r.objective().traffic()));
                    cells.add(r.plan() == null ? "-" : String.valueOf(r.plan().schedule().recomputes()));
                    cells.add(r.objective() == null ? "-" : String.valueOf(r.objective().recomputeCost()));
                    cells.add(r.bound() == null ? "-" : String.format(Locale.ROOT, "%.1f", r.bound()));
                    cells.add(r.gap() == null ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * r.gap()));
                    cells.add(String.format(Locale.ROOT, "%.1f", limits.budget().workUsed()));
                    cells.add(String.format(Locale.ROOT, "%.0f", seconds));
                    cells.add(String.valueOf(r.startOnly()));
                    cells.add(String.join("; ", r.notes()));
                    System.out.println(String.join(" | ", cells));
                }
            }
        }
    }

    /**
     * {@code sizes}: the program without addresses, its variables and constraints (and build seconds), and the
     * number of eq. 10 pairs the joint program would add (two variables, three rows each), per network and budget,
     * free and fixed (default order) schedule, windows on and off, every operator or the forward pass rerunning (of
     * them, those that may pay at the first lambda).
     */
    private static void sizes(List<String> nets, List<String> budgets, int k, double lambda) {
        TensorSetting s = TensorSetting.ACTIVATIONS;
        System.out.println("network | budget | k | schedule | windows | reruns | variables | constraints (without"
                + " addresses) | eq. 10 pairs of the joint program | build s");
        for (String net : nets) {
            Graph g = GraphSources.graph(net + ":train").withSetting(s);
            MinimumPeakScheduler mpmf = new MinimumPeakScheduler(MinimumPeakScheduler.DEFAULT_BEAM, Backend.CPSAT);
            for (String budgetName : budgets) {
                long bytes = BudgetChoice.resolve(budgetName, g, s, mpmf, limits(10)).bytes();
                for (boolean fixedOrder : new boolean[] {false, true}) {
                    for (boolean prune : new boolean[] {true, false}) {
                        for (Reruns reruns : Reruns.values()) {
                            long began = System.nanoTime();
                            String cells;
                            try (dev.memplan.formulations.milp.BuildGuard guard =
                                         dev.memplan.formulations.milp.BuildGuard.until(
                                                 Budget.ofWall(java.time.Duration.ofSeconds(60)))) {
                                dev.memplan.formulations.cosma.RecomputeFormulation f =
                                        new dev.memplan.formulations.cosma.RecomputeFormulation(g, s, bytes, k,
                                                lambda, fixedOrder ? dev.memplan.model.Schedule.defaultOrder(g)
                                                : null, reruns, prune, false);
                                cells = f.model().variableCount() + " | " + f.model().constraintCount() + " | "
                                        + f.addressPairs();
                            } catch (dev.memplan.formulations.milp.BuildAbandonedException e) {
                                cells = "> 60 s to build | - | -";
                            }
                            System.out.println(String.join(" | ", net + ":train", budgetName, String.valueOf(k),
                                    fixedOrder ? "fixed" : "free", prune ? "on" : "off", reruns.name(), cells,
                                    String.format(Locale.ROOT, "%.1f", (System.nanoTime() - began) / 1e9)));
                        }
                    }
                }
            }
        }
    }

    private static Limits limits(double units) {
        return new Limits(1, 0.0, 0L, Budget.ofWork(units, null), null);
    }
}
