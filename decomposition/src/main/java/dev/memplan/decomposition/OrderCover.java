package dev.memplan.decomposition;

import dev.memplan.baselines.allocation.Portfolio;
import dev.memplan.baselines.scheduling.LeximaxScheduler;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.formulations.cosma.OrderProgram;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Allocation;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanBuffers;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.Shares;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A spill-only plan of one order of first runs with the least traffic of that order without addresses, then packed.
 *
 * <p>The program is {@link OrderProgram}'s (the one {@link dev.memplan.formulations.cosma.FixedOrderBound#exact}
 * solves for its bound): its optimum is the least traffic of the order without addresses, and a solution is read as
 * segments ({@link OrderProgram#segments}). The segments are packed by the allocator portfolio ({@link
 * Portfolio#minimize}) and the plan is checked; it is returned only when it fits the budget and is valid.
 *
 * <p>The orders of divide and conquer's and the schemes' plans are often better than their plans: on the training
 * graphs at lambda 1 the road's spill-only plans paid more than this program's packed optimum in their own order
 * (BENCHMARKS.md, "Where the lambda-1 gaps lie"). Solved on CP-SAT under the caller's limits (one worker and its
 * deterministic time as work under a work limit, so the same plan on every machine).
 */
final class OrderCover {
    /** The name of the plans it makes (the solver row of the plan). */
    static final String NAME = "order-cover";
    /** What the recompute step's "plan from" adds to the source of a plan this made better. */
    static final String SOURCE = "its order covered exactly";
    /** The recompute step's "plan from" of a plan of a training step's levelled order. */
    static final String LEVELLED = "the levelled order covered exactly";

    /** What the recompute step's "plan from" adds to the source of a plan of its order moved ({@link #moved}). */
    static final String MOVED = "its order moved operator by operator, covered exactly";

    /** The "plan from" of a plan of the minimum-peak order of a beam of this width. */
    static final String MINIMUM_PEAK = "the minimum-peak order of width %d covered exactly";

    /**
     * A plan this made, the model checker's report on it (the callers offer both on), and where its order came from
     * (a "plan from" of the recompute step; null from {@link #cover}).
     */
    record Covered(Plan plan, CheckReport check, String source) {
    }

    /** The most programs one cover with margins solves (the first, without, included). */
    static final int MARGINS = 6;

    /** How much each margin is above the one before. */
    static final long MARGIN_STEP = 16;

    /** Of a cover with margins, what its first program and packing take. */
    static final double FIRST_TRY = 0.5;

    private OrderCover() {
    }

    /**
     * The lowest of the packed optima of several orders: each distinct order of first runs among {@code from}'s
     * plans (in the order given; plans that recompute have none), then, on a training step ({@link TrainingStep}),
     * its default order levelled ({@link LeximaxScheduler}, the order {@link LevelledStarts} plans on) and, up to
     * {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators, the minimum-peak orders of the beam's ladder (the
     * restarts' orders): the first with {@link Shares#ORDER_COVER_FIRST} of the limits when others follow, each other
     * an equal part of what the ones before it left; null when none gives a plan. The road's best plan need not
     * have the best order to cover: its plan came from replacement and packing, not from the order's own optimum
     * (BENCHMARKS.md, "The order cover on more than one order").
     *
     * @param g the graph in the plans' tensor setting
     * @param from plans whose orders are covered (nulls skipped)
     * @param sources where each of {@code from} comes from ("plan from" of the recompute step)
     * @param budget the budget in bytes
     * @param limits the whole step's limits
     */
    static Covered best(Graph g, List<Plan> from, List<String> sources, long budget, Limits limits) {
        List<Schedule> orders = new ArrayList<>();
        List<String> named = new ArrayList<>();
        List<Plan> hints = new ArrayList<>();
        TensorSetting setting = null;
        for (int i = 0; i < from.size(); i++) {
            Plan p = from.get(i);
            if (p != null && p.schedule().operators().size() == g.operatorCount()
                    && !orders.contains(p.schedule())) {
                orders.add(p.schedule());
                hints.add(p);
                named.add(sources.get(i) + ", " + SOURCE);
                setting = setting == null ? p.setting() : setting;
            }
        }
        if (setting == null || limits.stopped()) {
            return null;
        }
        if (TrainingStep.forwardCount(g) >= 0) {
            Schedule levelled = new LeximaxScheduler().schedule(g, limits).schedule();
            if (!orders.contains(levelled)) {
                orders.add(levelled);
                named.add(LEVELLED);
            }
            if (g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT) {
                minimumPeakOrders(g, limits, orders, named);
            }
        }
        Covered best = null;
        for (int i = 0; i < orders.size() && !limits.stopped(); i++) {
            Limits share = !limits.budget().limited() || i == orders.size() - 1 ? limits.child()
                    : i == 0 ? limits.child(Shares.ORDER_COVER_FIRST) : limits.part(orders.size() - i);
            Covered c = cover(g, i < hints.size() ? hints.get(i)
                    : new Plan(g.name(), setting, budget, orders.get(i), Map.of(), null, null), budget, share);
            if (c != null && (best == null
                    || c.plan().traffic().nonCompulsory() < best.plan().traffic().nonCompulsory())) {
                best = new Covered(c.plan(), c.check(), named.get(i));
            }
        }
        return best;
    }

    /**
     * The lower packed optimum of {@code from}'s order moved operator by operator ({@link OrderMoves}), from that order
     * and from it with its full sinks last ({@link OrderMoves#fullSinksLast}) when that is another order: each order
     * reached whose LP is below {@code from}'s traffic is covered with margins ({@link #cover}), the lower LP first
     * with {@link Shares#ORDER_COVER_FIRST} of the limits when another follows; before them, the last order on each way
     * whose LP rounded to whole tensors had not risen ({@link OrderMoves.Moved#whole}) when the moves went on past it
     * (on resnet50:train at M_R the moves' end has LP 17,181,696 and optimum 19,217,408, the LP's integrality gap; the
     * order on the way with {@code layer4.0.conv1/grad_weight} just before the other weight gradient of its input has
     * LP 17,187,792, its rounding the plan's 17,411,072, and a plan of 17,210,368) (not covered when the plan found is
     * at most its LP, which bounds every plan of its order); null when no order reached has such an LP or no cover
     * gives a plan. Only on a training step ({@link TrainingStep}) up to {@link DivideAndConquer#WHOLE_GRAPH_LIMIT}
     * operators, for a plan that recomputes nothing: the LP judges spill-only orders.
     *
     * <p>Why the second start: a full sink (read by nobody, its own tensors at least the budget) leaves no room for any
     * other tensor while it runs; the moves take one operator at a time and cannot take three of them past the
     * backward together (BENCHMARKS.md, "Full sinks moved last together").
     *
     * @param g the graph in {@code from}'s tensor setting
     * @param from the plan whose order is moved
     * @param source where {@code from} comes from ("plan from" of the recompute step)
     * @param budget the budget in bytes
     * @param limits the covers' limits; their stop also ends the moves
     */
    static Covered moved(Graph g, Plan from, String source, long budget, Limits limits) {
        if (from == null || from.schedule().recomputes() != 0 || from.schedule().operators().size() != g.operatorCount()
                || TrainingStep.forwardCount(g) < 0 || g.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT
                || !Solvers.nativeAvailable() || limits.stopped()) {
            return null;
        }
        int[] start = from.schedule().resolve(g);
        int[] sinksLast = OrderMoves.fullSinksLast(g, start, budget);
        List<OrderMoves.Moved> reached = new ArrayList<>();
        List<OrderMoves.Moved> whole = new ArrayList<>();
        for (int[] s : Arrays.equals(sinksLast, start) ? List.of(start) : List.of(start, sinksLast)) {
            OrderMoves.Moved m = OrderMoves.of(g, s, budget, limits);
            if (m != null && m.lp() < from.traffic().nonCompulsory() && !Arrays.equals(m.order(), start)
                    && reached.stream().noneMatch(r -> Arrays.equals(r.order(), m.order()))) {
                reached.add(m);
            }
            if (m != null && m.whole() != null && !Arrays.equals(m.whole(), m.order())
                    && m.wholeLp() < from.traffic().nonCompulsory() && !Arrays.equals(m.whole(), start)
                    && whole.stream().noneMatch(r -> Arrays.equals(r.order(), m.whole()))) {
                whole.add(new OrderMoves.Moved(m.whole(), m.wholeLp(), m.whole(), m.wholeLp()));
            }
        }
        reached.sort(Comparator.comparingLong(OrderMoves.Moved::lp));
        whole.sort(Comparator.comparingLong(OrderMoves.Moved::lp));
        reached.removeIf(r -> whole.stream().anyMatch(w -> Arrays.equals(r.order(), w.order())));
        reached.addAll(0, whole);
        Covered best = null;
        for (int i = 0; i < reached.size() && !limits.stopped(); i++) {
            if (best != null && best.plan().traffic().nonCompulsory() <= reached.get(i).lp()) {
                break;
            }
            Limits share = !limits.budget().limited() || i == reached.size() - 1 ? limits.child()
                    : limits.child(Shares.ORDER_COVER_FIRST);
            Plan plan = new Plan(g.name(), from.setting(), budget, Schedule.of(g, reached.get(i).order()), Map.of(),
                    null, null);
            Covered c = cover(g, plan, plan, budget, share, true);
            if (c != null && (best == null
                    || c.plan().traffic().nonCompulsory() < best.plan().traffic().nonCompulsory())) {
                best = new Covered(c.plan(), c.check(), source + ", " + MOVED);
            }
        }
        return best;
    }

    /**
     * The minimum-peak orders at each width of the beam's ladder up to the width the graph's size gives (the
     * restarts' orders, {@link Restarts}), each not yet in {@code orders}, added with its name, while the limits last.
     */
    private static void minimumPeakOrders(Graph g, Limits limits, List<Schedule> orders, List<String> named) {
        for (int w : MinimumPeakScheduler.rungs(MinimumPeakScheduler.sizedWidth(g.operatorCount()))) {
            if (limits.stopped()) {
                return;
            }
            Schedule order = MinimumPeakScheduler.pinnedOrder(w, Backend.CPSAT).schedule(g, limits).schedule();
            if (!orders.contains(order)) {
                orders.add(order);
                named.add(String.format(MINIMUM_PEAK, w));
            }
        }
    }

    /**
     * The packed optimum of {@code from}'s order, or null when the program finds no solution within limits, the
     * packing does not fit the budget, the plan is not valid, {@code from} recomputes (its order is not one of
     * first runs only), the limits are spent before it starts, or the program would pass {@link
     * OrderProgram#MAX_SPANS}.
     *
     * @param g the graph in {@code from}'s tensor setting
     * @param from a plan whose order is kept
     * @param budget the budget in bytes
     * @param limits the program's and the packing's limits (half each)
     */
    static Plan of(Graph g, Plan from, long budget, Limits limits) {
        return of(g, from, from, budget, limits);
    }

    /** {@link #of} with the solver hinted by {@code hint}'s residency (a plan of g with {@code from}'s order). */
    static Plan of(Graph g, Plan from, Plan hint, long budget, Limits limits) {
        Covered c = cover(g, from, hint, budget, limits);
        return c == null ? null : c.plan();
    }

    /** {@link #of} with the checker's report on the plan, without a source. */
    private static Covered cover(Graph g, Plan from, long budget, Limits limits) {
        return cover(g, from, from, budget, limits);
    }

    /** {@link #cover} hinted by {@code hint}, without margins. */
    private static Covered cover(Graph g, Plan from, Plan hint, long budget, Limits limits) {
        return cover(g, from, hint, budget, limits, false);
    }

    /**
     * {@link #cover} hinted by {@code hint}; with {@code margins}, when the packing of the program's optimum does not
     * fit the budget, the program again with a margin ({@link OrderProgram#of(Graph, int[], long, long)}: 1 byte, then
     * 16 times more each time while below the packing's excess over the budget, then that excess; at most {@link
     * #MARGINS} programs in all), each packed, the first that fits kept. The first program and its packing then take
     * half of the limits ({@link Shares#ORDER_COVER_PROGRAM} of it the program), each retry an equal part of what is
     * left.
     *
     * <p>Why: at M_R some orders' optimum is one the portfolio cannot pack where another optimum packs. On
     * deeplabv3_resnet50:train the order with the three 3x3 ASPP weight gradients last
     * ({@link OrderMoves#fullSinksLast}), moved, has its optimum at 43,101,184 (proven without addresses); CP-SAT's
     * first optimum packs at best at 6,690,896 (M_R 6,525,184); with a margin of 1 byte it returns another optimum of
     * the same traffic, packed at M_R by MiniMalloc at once. Larger margins leave room at every moment but the full
     * ones (own bytes above the budget less the margin) and cost more traffic (on that order 200,704 at 2,589 bytes).
     */
    static Covered cover(Graph g, Plan from, Plan hint, long budget, Limits limits, boolean margins) {
        if (from == null || from.schedule().operators().size() != g.operatorCount() || !Solvers.nativeAvailable()
                || limits.stopped()) {
            return null;
        }
        int[] order = from.schedule().resolve(g);
        long margin = 0;
        for (int k = 0; k < (margins ? MARGINS : 1) && !limits.stopped(); k++) {
            Limits share = !margins ? limits.child() : k == 0 ? limits.child(FIRST_TRY) : limits.part(MARGINS - k);
            OrderProgram program = OrderProgram.of(g, order, budget, margin);
            if (program == null) {
                return null;
            }
            program.hint(g, hint);
            SolverResult r = Solvers.create(Backend.CPSAT).solve(program.model(),
                    share.child(Shares.ORDER_COVER_PROGRAM));
            if (!r.hasSolution()) {
                return null;
            }
            Plan loose = new Plan(g.name(), from.setting(), budget, from.schedule(), program.segments(g, r), null,
                    null);
            Allocation packed = Portfolio.minimize(PlanBuffers.toBufferSet(g, loose), share.child()).allocation();
            if (packed == null || !packed.solved()) {
                return null;
            }
            long excess = packed.placement().height() - budget;
            if (excess > 0) {
                if (margin >= excess) {
                    return null;
                }
                margin = margin == 0 ? 1 : Math.min(excess, margin * MARGIN_STEP);
                continue;
            }
            Plan plan = PlanBuffers.withPlacement(loose, packed.placement());
            CheckReport check = PlanChecker.check(g, plan);
            if (!check.valid()) {
                return null;
            }
            return new Covered(plan.withResult(check.traffic(), new SolverInfo(NAME, SolveStatus.HEURISTIC, 0, null)),
                    check, null);
        }
        return null;
    }
}
