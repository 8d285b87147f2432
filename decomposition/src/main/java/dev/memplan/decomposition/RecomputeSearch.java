package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Chooses recomputes on a checked plan (memory-model.md, "Recomputation") by a local search of four moves, each
 * applied to the plan itself and kept only when the checker accepts the result and its objective (traffic + lambda x
 * recompute cost) falls strictly:
 * <ul>
 *   <li><b>add</b>: a loaded segment of a produced tensor x becomes a run of x's producer p just before the first read
 *       in it (a new timestep; every later timestep moves one on). x's copy is {@code recomputed} at that run, at the
 *       segment's address. Each input of p is kept on chip from its last copy to the run, or its next load is made
 *       at the run, or it is loaded for the run alone (at its address where that stays free, else in a free gap);
 *       in the move's deeper forms an input that only a new load would bring is made instead by a rerun of its own
 *       producer just before, whose inputs are made the same way, up to {@link #CHAIN_DEPTH} reruns deep (a chain
 *       of reruns, as checkpointing reruns a segment from its checkpoint). Each sibling output is cut into a copy
 *       before the run and a recomputed one after it (or made for the run alone in a free gap). Tried when lambda x
 *       the reruns' costs (p's and its inputs' producers') is below what the load saves (the load, and x's spill when
 *       it is x's only load), the dearest savings first, each deeper form only where the shallower one was refused
 *       and when it reruns something that deep; the chains two or more deep after every other move.
 *       No move reruns an operator that {@link Reruns#mayPay} rules out (some optimum reruns none of them, by the
 *       dominance argument there): p must may-pay, and the chain reruns only the inputs' producers that may pay,
 *       the other inputs are loaded;</li>
 *   <li><b>drop</b>: a recompute is removed (its timestep goes); each output's recomputed copy becomes a load when a
 *       read is left in it, else goes, and a segment that held an input only for that run ends at its last read or
 *       goes. Tried on every recompute, the dearest first;</li>
 *   <li><b>end early</b>: a segment of a produced tensor x with a stretch of at least {@link #END_GAP} timesteps
 *       without a read (a copy kept from the forward pass to its backward reader) ends where the stretch starts, and
 *       x's producer reruns just before the read that ends it, its inputs made as an add's (up to
 *       {@link #CHAIN_DEPTH} deep); in the room freed, every load that can be kept on chip from the copy before is (at
 *       that copy's address, the load's, or the lowest free over the whole stretch), the dearest first. The rerun
 *       alone only costs: the move pays through what the freed room saves, as a re-planning of spills would use it.
 *       Tried last (once the adds, drops and chains ended), the largest bytes x timesteps freed first, each
 *       depth after the shallower;</li>
 *   <li><b>keep</b>: a loaded segment merged into the copy of its tensor before it, kept on chip through the stretch
 *       between them where an address is free over it all (as an end-early's room is used); the dearest load first,
 *       after the adds and drops, before the end-earlies.</li>
 * </ul>
 * Each kept move restarts the scan on the new plan; a move the checker refuses or that does not pay is not tried
 * again until a scan keeps nothing: then, when moves were kept since the refusals began, they are all tried again
 * (the moves kept freed room and moved loads), so a search the limit does not cut ends where no move of its own
 * lowers the plan. The keeps and end-earlies are offered only once the adds, drops and chains have ended so (a
 * pass of them all refused): one pass of the keeps and end-earlies then, and when one is kept every refusal is
 * cleared and the other moves go on first. An end-early costs a plan size per load its fill tries; offered in
 * every pass they took the work the other moves' passes used to have, and the searches were cut short before
 * their adds and drops ended (lraspp_mobilenet_v3_large:train M_R at lambda 2^-8, BENCHMARKS.md, session 30):
 * a search cut before its adds and drops end makes the moves it made without the late ones. The other segments
 * keep their timesteps and addresses (a keep only lengthens a copy, at the lowest free address when its own are
 * taken), so the plan's order, spills and addresses are not re-planned here:
 * {@link RecomputeStep} then re-plans the result around its recomputes ({@link RecomputeReplan}).
 *
 * <p>Deterministic: candidates are ordered by their price and then by tensor and timestep, and the work is counted,
 * one step per segment and run of each plan tried ({@link #STEPS_PER_UNIT} a unit; an end-early one more for each
 * load its fill tries); the search ends when a scan
 * of every move keeps nothing, the work is spent or the limit stops it. Time O(moves tried x plan size).
 */
final class RecomputeSearch {

    /**
     * Plan elements (segments and runs) a work unit covers when a move is tried (copied, edited and checked), so that
     * a unit takes about a second on the quiet reference machine: timed again on resnet50:train M_H and
     * fcn_resnet50:train M_R at lambda 2^-8, where the searches tried about a million elements a second on the
     * loaded shared machine, a quarter of the quiet one's speed (BENCHMARKS.md, "The recompute search's moves
     * re-timed"); the first timing's 400,000 made a unit a fraction of a second, and cut the searches short at a
     * hundred moves.
     */
    static final long STEPS_PER_UNIT = 4_000_000;

    /**
     * The deepest chain of reruns an add tries for the inputs it needs: on resnet50:train at lambda 2^-8 a rerun of a
     * residual add for its output mostly swapped the load saved for a load of an input of the same size; making that
     * input again needs its producer's inputs, a convolution's or the previous block's add's. Eight: a residual
     * block's forward from its input (convolution, batch norm and activation three times, then the add) is that deep,
     * as checkpointing reruns it; tried only after the shallower moves, each a few elements of work.
     */
    static final int CHAIN_DEPTH = 8;

    /**
     * The fewest timesteps without a read an end-early move frees: a copy kept from the forward pass to the backward
     * (resnet50:train at M_H and lambda 2^-8: 33 saved activations held across the loss for 40 to 190 timesteps, 5.7
     * of the 6.8 MB budget at the backward's fullest moment); a short stretch frees too little to keep a load.
     */
    static final int END_GAP = 4;

    /**
     * The search's answer.
     *
     * @param plan the best plan, the start when nothing was kept
     * @param check its check
     * @param objective its objective
     * @param added recomputes added by the moves kept
     * @param dropped recomputes dropped by the moves kept
     * @param kept loads that keep moves kept made copies kept on chip (not counting an end-early's)
     * @param tried moves tried
     * @param cut the limit (its work share, or the wall clock) ended the search before a scan kept nothing
     */
    record Result(Plan plan, CheckReport check, Objective objective, int added, int dropped, int kept, int tried,
                  boolean cut) {

        /** Whether the search kept a move: the plan is not the start. */
        boolean improved() {
            return added + dropped + kept > 0;
        }

        /** One line for the report and progress. */
        String note(Objective from) {
            return tried + " moves tried, " + added + " recomputes added, " + dropped + " dropped"
                    + (kept > 0 ? ", " + kept + " loads kept on chip" : "")
                    + (cut ? ", cut short by the limit; " : "; ")
                    + (improved() ? objective + " from " + from : "nothing below " + from);
        }
    }

    private RecomputeSearch() {
    }

    /**
     * The search from {@code start}, a valid plan of {@code g} (a graph in its tensor setting) within its budget.
     */
    static Result run(Graph g, Plan start, double lambda, Limits limits, Consumer<String> progress) {
        return new Walk(g, start, lambda).advance(limits, progress);
    }

    /**
     * One search that can be continued: {@link #advance} runs it within a limit and, when the limit cut it, a later
     * call goes on where it stopped (the plan, the moves refused and the pass it was in are kept), so a search given
     * its work in two calls makes the moves it makes given the sum in one (but a move whose work the first call's
     * limit stopped is charged again). {@link RecomputeChoice} gives every start a share, then more to the lowest.
     */
    static final class Walk {
        private final Graph g;
        private final Plan start;
        private final double lambda;
        private final Set<String> refused = new HashSet<>();
        private State best;
        private CheckReport check;
        private Objective objective;
        private int added;
        private int dropped;
        private int keptLoads;
        private int tried;
        private boolean kept = true;
        private boolean keptSinceCleared;
        private boolean inPass;
        private boolean done;
        /** Whether the pass offers the keeps and end-earlies: only once the other moves ended (see advance). */
        private boolean late;
        /** Whether the keeps and end-earlies are offered at all ({@link #early}: never). */
        private boolean lateMoves = true;

        Walk(Graph g, Plan start, double lambda) {
            this.g = g;
            this.start = start;
            this.lambda = lambda;
            this.check = PlanChecker.requireValid(g, start, "the recompute search's start");
            this.best = State.of(g, start, start.budget(), Reruns.ANY.of(g, lambda));
            this.objective = Objective.of(check.traffic(), lambda);
        }

        /** This walk without the keeps and end-earlies: the adds, drops and chains alone (for tests). */
        Walk early() {
            lateMoves = false;
            return this;
        }

        /** Whether a scan of every move kept nothing: more work changes nothing. */
        boolean done() {
            return done;
        }

        /** The objective of the plan so far. */
        Objective objective() {
            return objective;
        }

        /** The search continued within {@code limits}; its answer so far ({@link Result#cut}: stopped by them). */
        Result advance(Limits limits, Consumer<String> progress) {
            Budget.Meter meter = limits.workMode() ? limits.budget().meter(STEPS_PER_UNIT) : null;
            boolean cut = false;
            scan:
            while (!done) {
                if (!inPass) {
                    if (!kept && !keptSinceCleared) {
                        if (late || !lateMoves) {
                            done = true;
                            break;
                        }
                        // The adds, drops and chains ended: one pass of the keeps and end-earlies (those refused
                        // stay skipped), which cost a plan size per load each and used to take the work the
                        // other moves' passes needed (lraspp_mobilenet_v3_large:train M_R at 2^-8).
                        late = true;
                        kept = true;
                    }
                    if (!kept) {
                        // A pass kept nothing: the moves kept since the refusals were made freed room and moved loads.
                        refused.clear();
                        keptSinceCleared = false;
                    }
                    kept = false;
                    inPass = true;
                }
                for (Move move : best.moves(lambda, late)) {
                    String key = best.key(move);
                    if (refused.contains(key)) {
                        continue;
                    }
                    if (limits.stopped() || meter != null && !meter.step(best.size())) {
                        // The pass goes on from here at the next call: the moves refused in it are skipped.
                        cut = true;
                        break scan;
                    }
                    tried++;
                    if (meter != null) {
                        // An end-early's keeps and drops are charged once it is tried, so that every move can be.
                        meter.step(best.size() * (best.weight(move) - 1));
                    }
                    State next = switch (move.kind()) {
                        case ADD -> best.add(move.tensor(), move.segment(), move.depth());
                        case DROP -> best.drop(move.time());
                        case KEEP -> best.kept(move.tensor(), move.segment());
                        case END -> best.endEarly(move.tensor(), move.segment(), move.depth());
                    };
                    CheckReport c = check(g, next, start);
                    Objective o = c == null || !c.valid() ? null : Objective.of(c.traffic(), lambda);
                    if (o == null || o.value() >= objective.value()) {
                        refused.add(key);
                        continue;
                    }
                    String what = describe(g, best, move);
                    best = next;
                    check = c;
                    objective = o;
                    switch (move.kind()) {
                        case ADD, END -> added++;
                        case DROP -> dropped++;
                        case KEEP -> keptLoads++;
                    }
                    progress.accept("recompute: search: " + what + ": " + objective);
                    kept = true;
                    inPass = false;
                    if (late) {
                        // A keep or end-early freed room and moved loads: every move may pay again, the others first.
                        late = false;
                        refused.clear();
                        keptSinceCleared = false;
                        continue scan;
                    }
                    keptSinceCleared = true;
                    continue scan;
                }
                inPass = false;
            }
            if (meter != null) {
                meter.flush();
            }
            Plan plan = best.plan(start);
            return new Result(added + dropped + keptLoads == 0 ? start
                    : plan.withResult(check.traffic(), start.solver()), check, objective, added, dropped, keptLoads,
                    tried, cut);
        }
    }

    /** The check of {@code next}'s plan, or null when there is no plan or its records refuse it. */
    private static CheckReport check(Graph g, State next, Plan start) {
        try {
            return next == null ? null : PlanChecker.check(g, next.plan(start));
        } catch (IllegalArgumentException e) {
            // A schedule or segment the plan's records refuse: the move is refused like an invalid plan.
            return null;
        }
    }

    /** The move in words, on the state it is made on. */
    private static String describe(Graph g, State state, Move move) {
        if (move.kind() == Kind.DROP) {
            return "drop a rerun of '" + g.operator(state.runs.get(move.time())).name() + "'";
        }
        if (move.kind() == Kind.KEEP) {
            return "keep '" + g.tensor(move.tensor()).name() + "' on chip instead of a load";
        }
        return (move.kind() == Kind.END ? "end '" + g.tensor(move.tensor()).name() + "' early and rerun '"
                : "rerun '") + g.operator(g.producer(move.tensor())).name()
                + (move.depth() == 1 ? "' (and an input's producer)"
                        : move.depth() > 1 ? "' (and reruns for its inputs, " + move.depth() + " deep)" : "'")
                + " for '" + g.tensor(move.tensor()).name() + "'";
    }

    /** What a move does (see the class comment and {@link State#endEarly}). */
    private enum Kind { ADD, DROP, KEEP, END }

    /**
     * A move: add a rerun for loaded segment {@code segment} of {@code tensor}, drop the rerun at {@code time}, or end
     * segment {@code segment} early and rerun its producer for its next read.
     *
     * @param price what it is ordered by, dearest saving first (an end-early: its bytes x the timesteps it frees)
     * @param depth for an add or an end-early: 0, or how deep an input that only a new load would bring on chip is
     *     made instead by a rerun of its own producer just before (when that producer may pay), that rerun's inputs
     *     the same way one level less deep
     */
    private record Move(Kind kind, int tensor, int segment, int time, double price, int depth) {

        boolean add() {
            return kind == Kind.ADD;
        }
    }

    /**
     * A plan being edited: its runs (operator indices) and, per tensor, its segments in time order; pays[o]: o may
     * rerun ({@link Reruns#mayPay} at the search's lambda).
     */
    private static final class State {
        final Graph g;
        final long budget;
        final boolean[] pays;
        final List<Integer> runs;
        final List<List<Segment>> segments;

        private State(Graph g, long budget, boolean[] pays, List<Integer> runs, List<List<Segment>> segments) {
            this.g = g;
            this.budget = budget;
            this.pays = pays;
            this.runs = runs;
            this.segments = segments;
        }

        static State of(Graph g, Plan p, long budget, boolean[] pays) {
            List<Integer> runs = new ArrayList<>();
            for (String o : p.schedule().operators()) {
                runs.add(g.operatorIndex(o));
            }
            List<List<Segment>> segments = new ArrayList<>();
            for (int x = 0; x < g.tensorCount(); x++) {
                List<Segment> list = new ArrayList<>(p.segmentsOf(g.tensor(x).name()));
                list.sort(Comparator.comparingInt(Segment::start));
                segments.add(list);
            }
            return new State(g, budget, pays, runs, segments);
        }

        State copy() {
            List<List<Segment>> s = new ArrayList<>(segments.size());
            for (List<Segment> list : segments) {
                s.add(new ArrayList<>(list));
            }
            return new State(g, budget, pays, new ArrayList<>(runs), s);
        }

        /** The elements a move copies and checks. */
        long size() {
            long n = runs.size();
            for (List<Segment> list : segments) {
                n += list.size();
            }
            return n;
        }

        Plan plan(Plan template) {
            List<String> names = new ArrayList<>(runs.size());
            for (int o : runs) {
                names.add(g.operator(o).name());
            }
            Map<String, List<Segment>> named = new LinkedHashMap<>();
            for (int x = 0; x < g.tensorCount(); x++) {
                if (!segments.get(x).isEmpty()) {
                    List<Segment> list = new ArrayList<>(segments.get(x));
                    list.sort(Comparator.comparingInt(Segment::start));
                    named.put(g.tensor(x).name(), list);
                }
            }
            return new Plan(template.graph(), template.setting(), template.budget(), new Schedule(names), named, null,
                    template.solver());
        }

        /**
         * The moves to try, in order: adds at most one rerun deep by saving left after the reruns' price, then drops
         * by price, then the deeper chains by saving, then, when {@code late}, the keeps and the end-earlies: a search
         * follows the shallower moves' path until it ends.
         */
        List<Move> moves(double lambda, boolean late) {
            List<Move> adds = new ArrayList<>();
            for (int x = 0; x < g.tensorCount(); x++) {
                int p = g.producer(x);
                if (p < 0 || !pays[p]) {
                    continue;
                }
                List<Segment> list = segments.get(x);
                long loads = list.stream().filter(s -> s.origin() == Origin.LOADED).count();
                for (int i = 0; i < list.size(); i++) {
                    if (list.get(i).origin() != Origin.LOADED) {
                        continue;
                    }
                    long saves = g.size(x) + (loads == 1 && !g.isGraphOutput(x) ? g.size(x) : 0);
                    double price = lambda * g.cost(p);
                    if (price < saves) {
                        adds.add(new Move(Kind.ADD, x, i, -1, saves - price, 0));
                    }
                    double chained = price;
                    boolean produced = false;
                    for (int b : g.inputs(p)) {
                        if (g.producer(b) >= 0 && pays[g.producer(b)]) {
                            chained += lambda * g.cost(g.producer(b));
                            produced = true;
                        }
                    }
                    for (int depth = 1; produced && chained < saves && depth <= CHAIN_DEPTH; depth++) {
                        adds.add(new Move(Kind.ADD, x, i, -1, saves - chained, depth));
                    }
                }
            }
            adds.sort(Comparator.comparingDouble((Move m) -> -m.price()).thenComparingInt(Move::tensor)
                    .thenComparingInt(Move::segment).thenComparingInt(Move::depth));
            List<Move> drops = new ArrayList<>();
            boolean[] seen = new boolean[g.operatorCount()];
            for (int t = 0; t < runs.size(); t++) {
                int o = runs.get(t);
                if (seen[o]) {
                    drops.add(new Move(Kind.DROP, -1, -1, t, lambda * g.cost(o), 0));
                }
                seen[o] = true;
            }
            drops.sort(Comparator.comparingDouble((Move m) -> -m.price()).thenComparingInt(Move::time));
            List<Move> all = new ArrayList<>();
            adds.stream().filter(m -> m.depth() <= 1).forEach(all::add);
            all.addAll(drops);
            adds.stream().filter(m -> m.depth() > 1).forEach(all::add);
            if (late) {
                all.addAll(keeps());
                all.addAll(ends(lambda));
            }
            return all;
        }

        /**
         * The loads an end-early tries to keep on chip: every loaded segment after another copy of its tensor (its
         * tensor and index), the dearest load first (its bytes, and its spill's when it is the tensor's only load of a
         * produced tensor that is no graph output).
         */
        private List<Move> keeps() {
            List<Move> keeps = new ArrayList<>();
            for (int x = 0; x < g.tensorCount(); x++) {
                List<Segment> list = segments.get(x);
                long loads = list.stream().filter(s -> s.origin() == Origin.LOADED).count();
                for (int i = 1; i < list.size(); i++) {
                    if (list.get(i).origin() == Origin.LOADED) {
                        long saves = g.size(x) + (loads == 1 && g.producer(x) >= 0 && !g.isGraphOutput(x)
                                ? g.size(x) : 0);
                        keeps.add(new Move(Kind.KEEP, x, i, -1, saves, 0));
                    }
                }
            }
            keeps.sort(Comparator.comparingDouble((Move m) -> -m.price()).thenComparingInt(Move::tensor)
                    .thenComparingInt(Move::segment));
            return keeps;
        }

        /**
         * The end-early moves: every segment of a tensor whose producer may pay with a stretch of at least
         * {@link #END_GAP} timesteps without a read after its start or a read, the largest bytes x timesteps first,
         * each at every depth up to {@link #CHAIN_DEPTH} (the shallower first) where the reruns' price is below what
         * the stretch's bytes would cost as a spill and a load.
         */
        private List<Move> ends(double lambda) {
            List<Move> ends = new ArrayList<>();
            for (int x = 0; x < g.tensorCount(); x++) {
                int p = g.producer(x);
                if (p < 0 || !pays[p]) {
                    continue;
                }
                double chained = lambda * g.cost(p);
                boolean produced = false;
                for (int b : g.inputs(p)) {
                    if (g.producer(b) >= 0 && pays[g.producer(b)]) {
                        produced = true;
                    }
                }
                List<Segment> list = segments.get(x);
                for (int i = 0; i < list.size(); i++) {
                    int[] gap = widestGap(x, list.get(i));
                    if (gap == null || gap[1] - gap[0] < END_GAP || chained >= 2.0 * g.size(x)) {
                        continue;
                    }
                    double price = (double) g.size(x) * (gap[1] - gap[0]);
                    for (int depth = 0; depth <= (produced ? CHAIN_DEPTH : 0); depth++) {
                        ends.add(new Move(Kind.END, x, i, -1, price, depth));
                    }
                }
            }
            ends.sort(Comparator.comparingDouble((Move m) -> -m.price()).thenComparingInt(Move::tensor)
                    .thenComparingInt(Move::segment).thenComparingInt(Move::depth));
            return ends;
        }

        /**
         * The widest stretch of segment s of x with no read of x: {the segment's start or a read in it, the next read
         * in it}, the earliest of the widest; null when s has no read after its start.
         */
        private int[] widestGap(int x, Segment s) {
            int[] best = null;
            int last = s.start();
            for (int t = s.start() + 1; t <= s.end() && t < runs.size(); t++) {
                if (reads(t, x)) {
                    if (best == null || t - last > best[1] - best[0]) {
                        best = new int[] {last, t};
                    }
                    last = t;
                }
            }
            return best;
        }

        /**
         * The plan elements' multiple a move is charged: an end-early also tries a keep for every load, each a scan of
         * the plan's segments.
         */
        long weight(Move m) {
            if (m.kind() != Kind.END) {
                return 1;
            }
            long n = 1;
            for (List<Segment> list : segments) {
                for (Segment s : list) {
                    n += s.origin() == Origin.LOADED ? 1 : 0;
                }
            }
            return n;
        }

        /**
         * A move's identity across plans (timesteps shift): the tensor and the operator and occurrence of the run
         * that reads it, or the operator and occurrence of the rerun dropped.
         */
        String key(Move m) {
            if (m.kind() == Kind.KEEP) {
                return "keep " + m.tensor() + " " + occurrence(firstRead(m.tensor(), segments.get(m.tensor())
                        .get(m.segment())));
            }
            if (m.kind() == Kind.END) {
                int[] gap = widestGap(m.tensor(), segments.get(m.tensor()).get(m.segment()));
                return "end" + m.depth() + " " + m.tensor() + " " + occurrence(gap[1]);
            }
            if (m.add()) {
                Segment s = segments.get(m.tensor()).get(m.segment());
                int r = firstRead(m.tensor(), s);
                return (m.depth() == 0 ? "add " : m.depth() == 1 ? "chain " : "chain" + m.depth() + " ") + m.tensor()
                        + " " + occurrence(r);
            }
            return "drop " + occurrence(m.time());
        }

        private String occurrence(int t) {
            if (t < 0) {
                return "-";
            }
            int o = runs.get(t);
            int k = 0;
            for (int i = 0; i < t; i++) {
                k += runs.get(i) == o ? 1 : 0;
            }
            return o + "#" + k;
        }

        private boolean reads(int t, int x) {
            for (int b : g.inputs(runs.get(t))) {
                if (b == x) {
                    return true;
                }
            }
            return false;
        }

        private int firstRead(int x, Segment s) {
            for (int t = s.start(); t <= s.end() && t < runs.size(); t++) {
                if (reads(t, x)) {
                    return t;
                }
            }
            return -1;
        }

        /**
         * The plan with a rerun of x's producer before the first read of x in its loaded segment i, its inputs made by
         * reruns up to {@code depth} deep ({@link #rerunFor}); null if none, or if no rerun was {@code depth} deep (the
         * plan of a shallower move).
         */
        State add(int x, int i, int depth) {
            Segment load = segments.get(x).get(i);
            int r = firstRead(x, load);
            if (r < 0) {
                return null;
            }
            int p = g.producer(x);
            State n = copy();
            n.insert(r, p);
            n.segments.get(x).set(i, Segment.recomputed(r, load.end() + 1, load.offset()));
            int at = r;
            int deepest = 0;
            Set<Integer> done = new HashSet<>();
            for (int b : g.inputs(p)) {
                if (!done.add(b) || n.input(b, at, false)) {
                    continue;
                }
                if (depth > 0 && g.producer(b) >= 0 && pays[g.producer(b)]) {
                    // b is on chip only by a load that adds one: its producer q runs first, just before p.
                    int[] made = n.rerunFor(b, at, depth);
                    if (made == null) {
                        return null;
                    }
                    at = made[0];
                    deepest = Math.max(deepest, made[1]);
                } else if (!n.input(b, at, true)) {
                    return null;
                }
            }
            for (int y : g.outputs(p)) {
                if (y != x && done.add(y) && !n.sibling(y, at)) {
                    return null;
                }
            }
            return depth > 1 && deepest < depth ? null : n;
        }

        /**
         * Makes b, an input of the run at timestep r, by a rerun of its producer q (which may pay) inserted just
         * before it: b's copy is recomputed there, in a gap free over both runs; each input of q is kept on chip, its
         * load moved or made for it, or, with {@code depth} above 1 and when its own producer may pay, made by a rerun
         * in turn, one level less deep; q's other outputs get a recomputed copy.
         *
         * @return the reader's timestep after the insertions and the depth of the deepest rerun inserted; null when
         *     no room is found
         */
        private int[] rerunFor(int b, int r, int depth) {
            int q = g.producer(b);
            insert(r, q);
            int at = r + 1;
            Long gap = gapOver(at - 1, at, g.size(b), b);
            if (gap == null) {
                return null;
            }
            segments.get(b).add(Segment.recomputed(at - 1, at, gap));
            segments.get(b).sort(Comparator.comparingInt(Segment::start));
            int deepest = 1;
            for (int c : g.inputs(q)) {
                int qt = at - 1;
                if (input(c, qt, false)) {
                    continue;
                }
                if (depth > 1 && g.producer(c) >= 0 && pays[g.producer(c)]) {
                    int[] made = rerunFor(c, qt, depth - 1);
                    if (made == null) {
                        return null;
                    }
                    at += made[0] - qt;
                    deepest = Math.max(deepest, made[1] + 1);
                } else if (!input(c, qt, true)) {
                    return null;
                }
            }
            for (int y : g.outputs(q)) {
                if (y != b && !sibling(y, at - 1)) {
                    return null;
                }
            }
            return new int[] {at, deepest};
        }

        /** A run of o inserted at timestep r: segments from r on move one later, those across r hold through it. */
        private void insert(int r, int o) {
            runs.add(r, o);
            for (List<Segment> list : segments) {
                list.replaceAll(s -> new Segment(s.start() >= r ? s.start() + 1 : s.start(),
                        s.end() >= r ? s.end() + 1 : s.end(), s.offset(), s.origin()));
            }
        }

        /**
         * Makes input b resident at the new timestep r, by a load for it alone only when {@code load}; false when
         * that is not done or no room is found.
         */
        private boolean input(int b, int r, boolean load) {
            List<Segment> list = segments.get(b);
            for (int i = 0; i < list.size(); i++) {
                Segment s = list.get(i);
                if (s.contains(r)) {
                    return true;
                }
            }
            for (int i = list.size() - 1; i >= 0; i--) {
                // The last copy before the run, kept on to it where its address stays free: no load.
                Segment s = list.get(i);
                if (s.end() < r) {
                    if (freeOver(s.end() + 1, r, s.offset(), g.size(b), b)) {
                        list.set(i, new Segment(s.start(), r, s.offset(), s.origin()));
                        return true;
                    }
                    // ... or moved where it is free from its start to the run: a load at its start keeps its place.
                    Long moved = s.origin() == Origin.LOADED ? gapOver(s.start(), r, g.size(b), b) : null;
                    if (moved != null) {
                        list.set(i, Segment.loaded(s.start(), r, moved));
                        return true;
                    }
                    break;
                }
            }
            for (int i = 0; i < list.size(); i++) {
                // The next load after the run, made at the run instead (where its address, or another, is free).
                Segment s = list.get(i);
                if (s.start() > r) {
                    if (s.origin() == Origin.LOADED) {
                        Long at = freeOver(r, s.start() - 1, s.offset(), g.size(b), b) ? Long.valueOf(s.offset())
                                : gapOver(r, s.end(), g.size(b), b);
                        if (at != null) {
                            list.set(i, Segment.loaded(r, s.end(), at));
                            return true;
                        }
                    }
                    break;
                }
            }
            Long gap = load ? gap(r, g.size(b)) : null;
            if (gap == null) {
                return false;
            }
            list.add(Segment.loaded(r, r, gap));
            list.sort(Comparator.comparingInt(Segment::start));
            return true;
        }

        /** Gives sibling y a recomputed copy from the new timestep r; false when no room is found. */
        private boolean sibling(int y, int r) {
            List<Segment> list = segments.get(y);
            for (int i = 0; i < list.size(); i++) {
                Segment s = list.get(i);
                if (s.contains(r)) {
                    if (s.start() == r) {
                        return false;
                    }
                    list.set(i, new Segment(s.start(), r - 1, s.offset(), s.origin()));
                    list.add(i + 1, Segment.recomputed(r, s.end(), s.offset()));
                    return true;
                }
            }
            for (int i = 0; i < list.size(); i++) {
                Segment s = list.get(i);
                if (s.start() == r + 1 && s.origin() == Origin.LOADED && free(r, s.offset(), g.size(y))) {
                    list.set(i, Segment.recomputed(r, s.end(), s.offset()));
                    return true;
                }
            }
            Long gap = gap(r, g.size(y));
            if (gap == null) {
                return false;
            }
            list.add(Segment.recomputed(r, r, gap));
            list.sort(Comparator.comparingInt(Segment::start));
            return true;
        }

        /** The address ranges of the segments live at t, by offset. */
        private List<long[]> live(int t) {
            return live(t, t, -1);
        }

        /** The address ranges of the segments live at some timestep of [from, to], but tensor skip's, by offset. */
        private List<long[]> live(int from, int to, int skip) {
            List<long[]> ranges = new ArrayList<>();
            for (int x = 0; x < segments.size(); x++) {
                if (x == skip) {
                    continue;
                }
                for (Segment s : segments.get(x)) {
                    if (s.start() <= to && s.end() >= from) {
                        ranges.add(new long[] {s.offset(), s.offset() + g.size(x)});
                    }
                }
            }
            ranges.sort(Comparator.comparingLong(a -> a[0]));
            return ranges;
        }

        /** The lowest aligned address free over [from, to] for size bytes of tensor b below the budget, or null. */
        private Long gapOver(int from, int to, long size, int b) {
            return lowest(live(from, to, b), size);
        }

        private boolean free(int t, long offset, long size) {
            return freeOver(t, t, offset, size, -1);
        }

        /** Whether [offset, offset + size) is free over [from, to] of every tensor's segments but skip's. */
        private boolean freeOver(int from, int to, long offset, long size, int skip) {
            for (long[] range : live(from, to, skip)) {
                if (range[0] < offset + size && offset < range[1]) {
                    return false;
                }
            }
            return true;
        }

        /** The lowest aligned address where size bytes are free at t below the budget, or null. */
        private Long gap(int t, long size) {
            return lowest(live(t), size);
        }

        private Long lowest(List<long[]> ranges, long size) {
            long cursor = 0;
            for (long[] range : ranges) {
                long start = Budgets.roundUp(cursor, g.alignment());
                if (start + size <= range[0]) {
                    return start;
                }
                cursor = Math.max(cursor, range[1]);
            }
            long start = Budgets.roundUp(cursor, g.alignment());
            return start + size <= budget ? start : null;
        }

        /** The plan with {@link #keep}'s merge, or null when no address is free. */
        State kept(int x, int i) {
            State n = copy();
            return n.keep(x, i) ? n : null;
        }

        /**
         * Loaded segment i of x merged into the copy before it, kept on chip from that copy's start to the load's end
         * at one address (the copy's, the load's, or the lowest free over the whole stretch): one load less, and its
         * spill when it was the only one; false (nothing changed) when no address is free.
         */
        private boolean keep(int x, int i) {
            List<Segment> list = segments.get(x);
            if (i < 1 || i >= list.size() || list.get(i).origin() != Origin.LOADED) {
                return false;
            }
            Segment before = list.get(i - 1);
            Segment load = list.get(i);
            long size = g.size(x);
            Long at = freeOver(before.end() + 1, load.end(), before.offset(), size, x) ? Long.valueOf(before.offset())
                    : freeOver(before.start(), load.start() - 1, load.offset(), size, x) ? Long.valueOf(load.offset())
                    : gapOver(before.start(), load.end(), size, x);
            if (at == null) {
                return false;
            }
            list.set(i - 1, new Segment(before.start(), load.end(), at, before.origin()));
            list.remove(i);
            return true;
        }

        /**
         * The plan with segment i of x ended at the start of its widest stretch without a read ({@link #widestGap})
         * and x's producer rerun just before the read that ends the stretch, x's copy recomputed there to the
         * segment's end at the segment's address, the rerun's inputs and siblings made as an add's ({@link #add}
         * at {@code depth}); then, in the room the stretch freed, every load that can be kept on chip instead
         * ({@link #keep}), the dearest first. A rerun alone costs lambda x its price and saves nothing: the move pays
         * only through the loads it keeps. Null when no rerun fits.
         */
        State endEarly(int x, int i, int depth) {
            Segment s = segments.get(x).get(i);
            int[] gap = widestGap(x, s);
            if (gap == null) {
                return null;
            }
            State n = copy();
            List<Segment> list = n.segments.get(x);
            list.set(i, new Segment(s.start(), gap[0], s.offset(), s.origin()));
            // The rest as if loaded at the read that ends the stretch: the add makes it a rerun's copy instead.
            list.add(i + 1, Segment.loaded(gap[1], s.end(), s.offset()));
            State m = n.add(x, i + 1, depth);
            if (m == null) {
                return null;
            }
            List<Move> keeps = m.keeps();
            List<Segment> loads = new ArrayList<>();
            for (Move k : keeps) {
                loads.add(m.segments.get(k.tensor()).get(k.segment()));
            }
            for (int k = 0; k < keeps.size(); k++) {
                int y = keeps.get(k).tensor();
                // The keeps' indices shift as earlier keeps merge segments: each is found again by its load.
                int j = m.segments.get(y).indexOf(loads.get(k));
                if (y != x && j >= 1) {
                    m.keep(y, j);
                }
            }
            return m;
        }

        /** The plan without the rerun at timestep r (not an operator's first run); null when none is left. */
        State drop(int r) {
            int p = runs.get(r);
            State n = copy();
            n.runs.remove(r);
            for (int x = 0; x < g.tensorCount(); x++) {
                List<Segment> out = new ArrayList<>();
                for (Segment s : n.segments.get(x)) {
                    Segment moved = n.dropped(x, s, r, p);
                    if (moved != null) {
                        out.add(moved);
                    }
                }
                n.segments.set(x, out);
            }
            return n;
        }

        /** Segment s of tensor x once timestep r (a rerun of p) is gone, timesteps after it one earlier; or null. */
        private Segment dropped(int x, Segment s, int r, int p) {
            if (s.end() < r) {
                return s;
            }
            if (s.start() > r) {
                return new Segment(s.start() - 1, s.end() - 1, s.offset(), s.origin());
            }
            if (s.start() == r) {
                // Made or loaded at the rerun: a load from the next timestep when a read is left in it.
                if (s.end() == r) {
                    return null;
                }
                boolean read = false;
                for (int t = r; t < s.end(); t++) {
                    read |= reads(t, x);
                }
                return read ? Segment.loaded(r, s.end() - 1, s.offset()) : null;
            }
            if (s.end() > r) {
                return new Segment(s.start(), s.end() - 1, s.offset(), s.origin());
            }
            // It ended at the rerun: it ends at its last read before it (its own first timestep when made).
            int last = -1;
            for (int t = s.start(); t < r; t++) {
                if (reads(t, x)) {
                    last = t;
                }
            }
            if (last >= 0) {
                return new Segment(s.start(), last, s.offset(), s.origin());
            }
            return s.origin() == Origin.LOADED ? null : new Segment(s.start(), s.start(), s.offset(), s.origin());
        }
    }
}
