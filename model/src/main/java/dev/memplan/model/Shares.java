package dev.memplan.model;

import java.time.Duration;

/**
 * Every share a step takes of its run's {@link Budget}, in one place. A share is a fraction (or 1/n) of what
 * {@link Budget#left()} says is left when the step starts: wall time with {@code --time-limit}, counted work with
 * {@code --work-limit} (then every share below is a share of work, and a step's answer does not depend on the
 * machine). The steps run in the order below; each takes its share of what is left when it starts, so the shares
 * never add up past the limit. Measured reasons: BENCHMARKS.md ("Divide and conquer", "Deterministic work
 * limits", "Limits on a million operators"); {@code SharesTest} checks that they fit together.
 */
public final class Shares {

    /**
     * What a Belady scheme takes per operator in nanoseconds (measured under load): a starting scheme runs only
     * when twice this per operator is left.
     */
    public static final long SCHEME_NANOS_PER_OPERATOR = 100_000;

    /**
     * A command's or a case's first step, the minimum-peak order (M_P) that a named budget needs, gets 1/this of
     * what is left.
     */
    public static final int MINIMUM_PEAK_DIVISOR = 4;

    /**
     * {@code --decompose auto}: the whole graph's program first, with this fraction of what is left; divide and
     * conquer gets the rest when that plan is not proven.
     */
    public static final double WHOLE_FIRST = 0.8;

    /**
     * With a recompute weight, the joint program (spill and recompute together) gets this fraction of the run's
     * limit when it runs; the spill-only steps before it get the rest, and the recompute baselines run first, like
     * the schemes.
     */
    public static final double RECOMPUTE_JOINT = 0.25;

    /**
     * With a recompute weight, of what the spill-only steps leave, the share the best recompute baseline's plan gets
     * to be re-planned through the spill-only road (its runs unrolled); the joint program gets the rest. The joint
     * program is too large to build on most training graphs of the zoo (BENCHMARKS.md, "Recomputation through divide
     * and conquer").
     */
    public static final double RECOMPUTE_REPLAN = 0.5;

    /**
     * With a recompute weight, of what the re-planning leaves, the share the bound over every plan takes for its cover
     * over time as an integer program (CP-SAT), when its linear program does not meet the best plan; the recompute
     * search and the joint program get the rest.
     */
    public static final double RECOMPUTE_BOUND = 0.5;

    /**
     * With a recompute weight and a free schedule, of what the re-planning leaves, the share divide and conquer's
     * bounds priced for reruns (bounds over every plan) take before the cover over time: on the zoo's training graphs
     * the live-bytes bound priced takes about 2.2 units for both directions (BENCHMARKS.md, "Divide and conquer's
     * bounds priced for reruns"), most of this share at 60 units.
     */
    public static final double RECOMPUTE_PRICED = 0.35;

    /**
     * The most the exact cover of orders takes: with a recompute weight of what the re-planning leaves (a plan,
     * before the bound over every plan, which it may then meet), and on a training step's spill-only run through
     * divide and conquer of its limit, kept aside before the run. Each order's share goes half to its program on
     * CP-SAT, half to packing; on the zoo's training graphs a program takes a small part of it.
     */
    public static final double ORDER_COVER = 0.05;

    /**
     * With a recompute weight, of what the re-planning leaves, the most the reruns placed at once on the best plan's
     * runs and covered exactly take (before the bound over every plan, which the plan may then meet); a cover of
     * lraspp_mobilenet_v3_large:train's runs takes about a hundredth of a unit.
     */
    public static final double RERUN_COVER = 0.05;

    /** Of that share, the cover with every rerun placed; each rerun dropped in turn gets an equal part of the rest. */
    public static final double RERUN_COVER_ALL = 0.5;

    /** Of the exact cover's limits, what its program on CP-SAT takes; the packing gets the rest. */
    public static final double ORDER_COVER_PROGRAM = 0.5;

    /**
     * Of the exact cover's limits, what the first order (the best plan's) takes when more orders follow (a training
     * step's levelled and minimum-peak orders); they share the rest equally.
     */
    public static final double ORDER_COVER_FIRST = 0.5;

    /**
     * Of that share, the live-bytes bound's (first); the growing stems get the rest: on the zoo's training graphs the
     * first stem does not close, and what they do not use goes to the recompute search and the joint program.
     */
    public static final double PRICED_LIVE_BYTES = 0.8;

    /**
     * With a recompute weight, of what the bound over every plan leaves, the share the recompute search gets
     * (recomputes chosen on the best plan so far, then re-planned); the joint program gets the rest. Three quarters:
     * on the zoo's training graphs up to 300 operators the joint program built nothing at lambda 2^-8 (its programs
     * too large for the work left), while the search's moves were cut short by their share on
     * lraspp_mobilenet_v3_large:train (BENCHMARKS.md, "The recompute search's plans re-planned").
     */
    public static final double RECOMPUTE_CHOOSE = 0.75;

    /**
     * Of the recompute search's share, the most the fan-outs' reruns inserted into the best plan's order get first
     * (each order covered exactly, at most a unit each); the search's moves and re-planning share what they leave.
     */
    public static final double CHOOSE_FAN_OUT = 0.25;

    /**
     * Of the recompute search's share, the most the bound's cheap reruns inserted into a plan get
     * ({@code CoverReruns}: on the best plan when the step starts, and on the searches' lowest plan, then the search
     * from that one the same again): on lraspp_mobilenet_v3_large:train M_H at lambda 2^-8 its 68 covers took 2.95
     * units.
     */
    public static final double CHOOSE_COVER = 0.2;

    /** Of the recompute search's share, the fraction its moves get; re-planning the plan they made gets the rest. */
    public static final double CHOOSE_SEARCH = 0.25;

    /**
     * Of the recompute search's share after its moves on every start, the fraction the lowest searches the limit cut
     * get to go on ({@code RecomputeChoice.CHOOSE_CONTINUED} of them), before the re-planning of their plans: on
     * resnet50:train M_R at lambda 2^-8 every search was cut after about 200 moves, a few hundredths of a unit each,
     * and on the zoo's training graphs at 2^-8 the re-planning of the searches' plans never made the lowest plan
     * (BENCHMARKS.md, "The lowest recompute searches go on"). What a search does not use goes to the re-planning.
     */
    public static final double CHOOSE_CONTINUE = 0.5;

    /**
     * Of the re-planning's share after the recompute search, the fraction each of the search's plans it re-plans
     * gets of what is left, the last plan all of it (the lowest first).
     */
    public static final double CHOOSE_REPLAN_EACH = 0.5;

    /**
     * Of the recompute search's share after its moves, the fraction kept (the re-planning of its plans takes the
     * rest first) for the search again on the lowest plan re-planned, whose loads and spills the re-planning moved.
     */
    public static final double CHOOSE_AGAIN = 0.25;

    /**
     * Of the re-planning's share with a free schedule, the fraction its fixed-schedule program gets; divide and
     * conquer gets the rest.
     */
    public static final double REPLAN_FIXED = 0.5;

    /**
     * Of the re-planning's share, the fraction each recompute plan it starts from gets of what is left, the last
     * plan all of it (the best first).
     */
    public static final double REPLAN_EACH_START = 0.5;

    /**
     * Divide and conquer: each fixed-schedule start (FS(default), then FS(MPMF)) gets 1/this of what is left.
     */
    public static final int FIXED_START_DIVISOR = 8;

    /**
     * The fixed-schedule program on each restart's order (the minimum-peak beam at a narrower width) gets 1/this of
     * what is left: about one unit of 60 each.
     */
    public static final int RESTART_FIXED_DIVISOR = 60;

    /**
     * ... and at most this many seconds (work units under a work limit): with {@code --time-limit 600} a sixtieth is
     * 10 s an order, a minute before the main program starts on a NAS network, for plans a unit or two finds.
     */
    public static final double RESTART_FIXED_MOST = 2.0;

    /**
     * ... on this many orders, those whose schemes paid least.
     */
    public static final int RESTART_FIXED_ORDERS = 2;

    /**
     * A training step's levelled order (decomposition's LevelledStarts): the share of what is left that MiniMalloc
     * gets to pack Belady's choices made on bytes alone (BENCHMARKS.md, "Levelled orders for training steps").
     */
    public static final double LEVELLED_PACKING = 0.05;

    /** Divide and conquer: the parts are solved by this fraction of its limit (graphs up to 600 operators). */
    public static final double PARTS = 0.35;

    /** The same above 600 operators, where no fixed-schedule step follows and the windows are many. */
    public static final double LARGE_PARTS = 0.6;

    /**
     * Divide and conquer up to 600 operators: the fraction of its limit the window search leaves for the final
     * live-bytes bound (PeakBound) at the end: a bound run beside the search took the second core and the heap from
     * it.
     */
    public static final double FINAL_BOUND = 0.15;

    /**
     * Divide and conquer's final bound: the stem solved exactly (StemBound) takes up to this fraction of what is left
     * for it, the live-bytes bound the rest (BENCHMARKS.md, "The stem exactly").
     */
    public static final double STEM_BOUND = 0.5;

    /**
     * Divide and conquer up to 600 operators, before its window search: the growing stems (StemBound) and the plans of
     * their orders (StemPlans) take up to this fraction of what is left (BENCHMARKS.md, "Plans from the stem").
     */
    public static final double STEM_PLANS = 0.25;

    /** The live-bytes bound (PeakBound): each of its two directions, forward then backward, gets 1/this. */
    public static final int BOUND_DIRECTIONS = 2;

    /** Divide and conquer: the fraction of its limit the early live-bytes bound may take (it proves easy cases). */
    public static final double EARLY_BOUND = 0.05;

    /** ... and its wall time without any limit. */
    public static final Duration EARLY_BOUND_CAP = Duration.ofSeconds(2);

    /**
     * Divide and conquer: the fixed-schedule optimum of the stitched parts' order gets this fraction of what is
     * left after the parts.
     */
    public static final double STITCHED_ORDER = 0.25;

    /**
     * Divide and conquer: when a rerun's starting plan already beats the best plan before the window search, the
     * search gets 1/this of what is left and the reruns of the window search from those plans the rest.
     */
    public static final int WINDOWS_BEFORE_RERUNS_DIVISOR = 2;

    /** Divide and conquer: one window step takes at most 1/this of its limit. */
    public static final int WINDOW_STEP_DIVISOR = 10;

    /** A window step's proposal (the local order) gets 1/this of the step; the whole-graph check the rest. */
    public static final int WINDOW_PROPOSAL_DIVISOR = 2;

    /**
     * COSMA's first sub-step, the fixed-schedule program of the starting plan's order: 1/this of what is left
     * (small, decided in about a second on the zoo; its optimum often meets the forced bound). A sub-step only
     * looks for a plan that meets the bound, so it never starves the steps that prove optimality.
     */
    public static final int START_ORDER_DIVISOR = 4;

    /** COSMA with parameters: the activations solved alone, to be lifted, get 1/this of what is left. */
    public static final int LIFT_DIVISOR = 2;

    /**
     * The joint recompute program's steps: the program without addresses gets 1/this of what is left (its optimum
     * is a lower bound, its residency a plan once packed).
     */
    public static final int RECOMPUTE_RELAXATION_DIVISOR = 2;

    /** ... and the packing of its residency 1/this of what is left after it; the joint program the rest. */
    public static final int RECOMPUTE_PACKING_DIVISOR = 2;

    /**
     * COSMA's program without addresses on CP-SAT with a wall-time limit: SCIP's first pass (for its bound) gets
     * 1/this of the time. Not under a work limit (SCIP counts no deterministic work).
     */
    public static final int SCIP_PASS_DIVISOR = 4;

    /** The allocation portfolio under a work limit: MiniMalloc's share of the work left when CP-SAT follows. */
    public static final double MINIMALLOC_BEFORE_CPSAT = 0.5;

    /**
     * The allocation portfolio with a wall-time limit: a heuristic that runs once a packing exists may take until
     * 1/this of the time left, so that the heuristics after it leave the exact searches time.
     */
    public static final int LATER_HEURISTIC_DIVISOR = 2;

    /**
     * Building a program may take at most 1/this of the time it has (the solver's copy and the solve need the rest):
     * a model whose estimated build takes longer is skipped, and a build whose pace says so is abandoned.
     */
    public static final int BUILD_DIVISOR = 2;

    /** {@code mmap}: MCTS gets 1/this of what is left when the exact program follows it. */
    public static final int MMAP_MCTS_BEFORE_EXACT_DIVISOR = 3;

    /** {@code mmap}: the fraction of its wall limit (at most a second) kept to check and write the result. */
    public static final double MMAP_WRITE_MARGIN = 0.05;

    /** The mapping search (mmap): its starting planner gets 1/this of what is left. */
    public static final int MMAP_START_DIVISOR = 4;

    /** The mapping search: the relaxation without offsets gets 1/this of what is left after the start. */
    public static final int MMAP_RELAXATION_DIVISOR = 2;

    /** A command keeps 1/this of its wall limit (at most {@link #WRITE_MARGIN_CAP}) to check and write its result. */
    public static final int WRITE_MARGIN_DIVISOR = 10;

    /** The most a command keeps of its wall limit to check and write its result ({@code mmap} too). */
    public static final Duration WRITE_MARGIN_CAP = Duration.ofSeconds(1);

    /** Without any limit, the most one step (a part, a window, a fixed-schedule start, a sub-step) may take. */
    public static final Duration STEP_CAP = Duration.ofSeconds(60);

    /** Below this share (seconds, or work units under a work limit) a part keeps its starting plan. */
    public static final double MIN_SOLVE = 0.3;

    /** Wall time divide and conquer keeps at the end for the last check and the report (none under work). */
    public static final Duration MARGIN = Duration.ofMillis(1500);

    private Shares() {
    }
}
