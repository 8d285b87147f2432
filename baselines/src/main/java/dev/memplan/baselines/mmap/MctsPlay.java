package dev.memplan.baselines.mmap;

import dev.memplan.model.Budget;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.mmap.Action;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.MappingPlanner;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MmapInstance;
import java.util.Random;

/**
 * Monte Carlo tree search on the true dynamics of the {@link MmapGame} (no learned model: the MMap-MuZero paper's
 * search, Section 4.3, with exact transitions and rollouts in place of its networks). Before each move it runs
 * simulations from the current state: UCT selection with values min-max normalised over the tree (as MuZero
 * does), one new node per simulation, then a rollout of at most {@code rolloutDepth} moves by the default policy
 * (the first legal of NoCopy, Copy, Drop, or with probability 0.2 a uniform legal move); the value is the reward
 * gained from the root. A simulation that reaches an infeasible state ends there with the reward a Drop-backup
 * would keep, the local negative signal of Section 4.3.2; in the real game an infeasible state takes the
 * Drop-backup. The move with the most visits is played.
 *
 * <p>Budget: at most {@code simulations} per move; with a time limit, each move gets an equal share of the time
 * left, and moves past the deadline follow the default policy, so the wall time stays within the limit plus the
 * default policy's pass. Cost per simulation: {@code rolloutDepth} first fits.
 */
public final class MctsPlay implements MappingPlanner {

    public static final String NAME = "mcts";

    private static final double EXPLORE_ROLLOUT = 0.2;

    /** On the zoo 128 beat 32 simulations on three networks of four, at a few seconds per network. */
    public static final int DEFAULT_SIMULATIONS = 128;

    private final int simulations;
    private final int rolloutDepth;
    private final double exploration;

    /**
     * @param simulations  simulations per move, at most
     * @param rolloutDepth default-policy moves after the new node
     * @param exploration  the UCT constant on normalised values
     */
    public MctsPlay(int simulations, int rolloutDepth, double exploration) {
        if (simulations < 1 || rolloutDepth < 0) {
            throw new IllegalArgumentException("need simulations >= 1 and rollout depth >= 0");
        }
        this.simulations = simulations;
        this.rolloutDepth = rolloutDepth;
        this.exploration = exploration;
    }

    /** 128 simulations per move, rollouts of 16 moves, exploration 1.0. */
    public MctsPlay() {
        this(DEFAULT_SIMULATIONS, 16, 1.0);
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Moves played inside simulations per work unit under a work limit ({@link Limits#workMode()}): about what the
     * reference machine plays in a wall second (BENCHMARKS.md, "Figures moved out of the Javadoc"). Each searched
     * move gets an equal share of the steps left, so the mapping depends on the work, not on the clock.
     */
    public static final long STEPS_PER_UNIT = 1_000_000L;

    @Override
    public MappingResult plan(MmapInstance in, Limits limits) {
        long start = System.nanoTime();
        boolean work = limits.workMode();
        Limits lim = work ? limits.child() : limits;
        // Under a work limit the wall clock is only the command's outer guard.
        java.time.Duration wall = lim.budget().wallLeft();
        long deadline = wall == null ? Long.MAX_VALUE : start + Math.min(wall.toNanos(), Long.MAX_VALUE / 4);
        long stepBudget = !work ? Long.MAX_VALUE : (long) Math.min(Long.MAX_VALUE / 4.0,
                lim.budget().workLeftMicro() / (double) Budget.MICRO * STEPS_PER_UNIT);
        Budget.Meter meter = work ? lim.budget().meter(STEPS_PER_UNIT) : null;
        Random rnd = new Random(limits.seed());
        MmapGame game = new MmapGame(in);
        long searched = 0;
        while (!game.done()) {
            Decision[] options = game.options();
            if (MmapGame.infeasible(options)) {
                game.dropBackup();
                continue;
            }
            if (MmapGame.legalCount(options) == 1) {
                game.play(defaultMove(options, rnd, 0));
                continue;
            }
            long now = System.nanoTime();
            long movesLeft = in.size() - game.step();
            long until;
            long steps;
            if (work) {
                // An equal share of the steps left; the wall deadline only guards.
                steps = (stepBudget - meter.steps()) / movesLeft;
                until = deadline;
                if (steps <= 0 || now >= deadline) {
                    if (now >= deadline) {
                        lim.budget().markWallStop();
                    }
                    game.play(defaultMove(options, rnd, 0));
                    continue;
                }
            } else {
                long share = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : (deadline - now) / movesLeft;
                if (share <= 0) {
                    game.play(defaultMove(options, rnd, 0));
                    continue;
                }
                until = share == Long.MAX_VALUE ? Long.MAX_VALUE : now + share;
                steps = Long.MAX_VALUE;
            }
            searched++;
            game.play(options[search(game, options, rnd, until, steps, meter)]);
        }
        if (meter != null) {
            meter.flush();
        }
        return MappingResult.checked(NAME, in, game.mapping(), SolveStatus.HEURISTIC, -1, start,
                game.backups() + " drop-backups, " + searched + " searched moves"
                        + (meter == null ? "" : ", " + meter.steps() + " simulated moves"));
    }

    /** A node: statistics per action of the state reached by the path to it. */
    private static final class Node {
        Decision[] options;
        final int[] visits = new int[Action.values().length];
        final double[] value = new double[Action.values().length];
        final Node[] children = new Node[Action.values().length];
        int total;
    }

    /**
     * One move's search: simulations until {@code simulations}, the clock ({@code until}) or, under a work limit,
     * {@code stepBudget} moves played inside simulations (counted on {@code meter}, null without a work limit).
     */
    private int search(MmapGame game, Decision[] rootOptions, Random rnd, long until, long stepBudget,
                       Budget.Meter meter) {
        long stepsUsed = 0;
        Node root = new Node();
        root.options = rootOptions;
        long base = game.reward();
        double[] range = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        Node[] pathNodes = new Node[game.instance().size() + 1];
        int[] pathActions = new int[game.instance().size() + 1];
        for (int s = 0; s < simulations && (s == 0 || stepsUsed < stepBudget && System.nanoTime() < until); s++) {
            int depth = 0;
            int played = 0;
            Node node = root;
            double result;
            while (true) {
                if (game.done()) {
                    result = game.reward() - base;
                    break;
                }
                if (node.options == null) {
                    node.options = game.options();
                }
                if (MmapGame.infeasible(node.options)) {
                    result = game.backupReward() - base;
                    break;
                }
                int a = select(node, range, rnd);
                pathNodes[depth] = node;
                pathActions[depth++] = a;
                game.play(node.options[a]);
                played++;
                if (node.children[a] == null) {
                    node.children[a] = new Node();
                    int[] rolled = {0};
                    result = rollout(game, rnd, rolled) - base;
                    played += rolled[0];
                    break;
                }
                node = node.children[a];
            }
            for (int k = 0; k < played; k++) {
                game.undo();
            }
            stepsUsed += played;
            if (meter != null) {
                meter.step(played);
            }
            for (int d = 0; d < depth; d++) {
                Node n = pathNodes[d];
                int a = pathActions[d];
                n.visits[a]++;
                n.total++;
                n.value[a] += result;
                double mean = n.value[a] / n.visits[a];
                range[0] = Math.min(range[0], mean);
                range[1] = Math.max(range[1], mean);
            }
        }
        int best = -1;
        for (int a = 0; a < rootOptions.length; a++) {
            if (rootOptions[a] != null && (best < 0 || root.visits[a] > root.visits[best]
                    || root.visits[a] == root.visits[best]
                    && mean(root, a) > mean(root, best))) {
                best = a;
            }
        }
        return best;
    }

    private static double mean(Node n, int a) {
        return n.visits[a] == 0 ? Double.NEGATIVE_INFINITY : n.value[a] / n.visits[a];
    }

    private int select(Node node, double[] range, Random rnd) {
        int best = -1;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int a = 0; a < node.options.length; a++) {
            if (node.options[a] == null) {
                continue;
            }
            double score;
            if (node.visits[a] == 0) {
                score = Double.POSITIVE_INFINITY;
            } else {
                double q = node.value[a] / node.visits[a];
                double norm = range[1] > range[0] ? (q - range[0]) / (range[1] - range[0]) : 0.5;
                score = norm + exploration * Math.sqrt(Math.log(node.total) / node.visits[a]);
            }
            if (score > bestScore || score == bestScore && rnd.nextBoolean()) {
                best = a;
                bestScore = score;
            }
        }
        return best;
    }

    /** Plays the default policy for at most rolloutDepth moves; returns the reward reached (a backup's if stuck). */
    private long rollout(MmapGame game, Random rnd, int[] played) {
        for (int k = 0; k < rolloutDepth && !game.done(); k++) {
            Decision[] options = game.options();
            if (MmapGame.infeasible(options)) {
                return game.backupReward();
            }
            game.play(defaultMove(options, rnd, EXPLORE_ROLLOUT));
            played[0]++;
        }
        return game.reward();
    }

    /** The first legal of NoCopy, Copy, Drop; with probability {@code explore} a uniform legal move. */
    private static Decision defaultMove(Decision[] options, Random rnd, double explore) {
        if (explore > 0 && rnd.nextDouble() < explore) {
            return RandomPlay.pick(options, rnd);
        }
        for (Action a : new Action[] {Action.NOCOPY, Action.COPY, Action.DROP}) {
            if (options[a.ordinal()] != null) {
                return options[a.ordinal()];
            }
        }
        throw new IllegalStateException("bug: no legal option");
    }
}
