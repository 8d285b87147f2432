package dev.memplan.baselines.allocation.telamalloc;

/**
 * The switches of {@link TelaMallocAllocator}, one per idea of the TelaMalloc paper (Maas et al., ASPLOS 2023,
 * section 5), so that each can be turned off for an ablation. {@link #DEFAULT} is the paper's full method.
 *
 * @param longestLifetime      candidate heuristic 1 (section 5.1): the unplaced buffer with the longest lifetime
 * @param largestSize          candidate heuristic 2: the largest unplaced buffer
 * @param largestArea          candidate heuristic 3: the unplaced buffer with the largest size x lifetime
 * @param solverGuidedPlacement section 5.2: place a candidate at the lowest position its propagated range allows;
 *                             off, drop it onto the skyline of the placed buffers live at the same time (Figure
 *                             8a), which cannot slide a buffer under one placed earlier
 * @param contentionGrouping   section 5.3: pack the parts of the time line that share no buffer independently,
 *                             and within a part take candidates from the phase of the previous buffer first;
 *                             off, one part and one phase
 * @param phaseStep            how far the contention threshold of the grouping drops per round, as a fraction
 *                             of the capacity (thresholds 100%, 100% - step, ...); in (0, 1]
 * @param backtracking         major backtracks (section 5.4): when every candidate of a decision point has
 *                             failed, undo an earlier decision; off, the search gives up instead (minor
 *                             backtracks, trying the next candidate when the solver rejects one, always happen)
 * @param backjumping          section 5.4: a major backtrack goes back to the latest placement in the conflict
 *                             that emptied the point (conflict-directed backjumping); off, one level
 * @param prependCandidates    section 5.4: on a major backtrack, the candidates of the abandoned point go first at
 *                             the point backtracked to
 * @param maxCandidates        the most candidates a decision point holds (section 5.4 caps the list so that
 *                             prepending cannot grow it without bound); at least 1
 * @param stuckThreshold       section 5.4's stuck detector: when more than this many backtracks happened below a
 *                             decision, abandon that decision (the deepest such one); 0 turns it off
 * @param exhaustive           not in the paper: make the search complete, so that running out of choices proves
 *                             infeasibility. Every unplaced buffer becomes a candidate (after the heuristics'
 *                             picks), major backtracks go one level, and maxCandidates, backjumping and the stuck
 *                             detector are ignored (they skip parts of the tree); needs backtracking. Exponential;
 *                             for small sets and tests
 * @param heuristicFirst       section 7: the skyline heuristic is faster than the search, so production still
 *                             tries it first; on, its packing is kept when it fits the capacity and the search
 *                             runs only when it does not; off, the search always runs
 */
public record TelaMallocOptions(
        boolean longestLifetime,
        boolean largestSize,
        boolean largestArea,
        boolean solverGuidedPlacement,
        boolean contentionGrouping,
        double phaseStep,
        boolean backtracking,
        boolean backjumping,
        boolean prependCandidates,
        int maxCandidates,
        int stuckThreshold,
        boolean exhaustive,
        boolean heuristicFirst) {

    /**
     * The full method of section 5: all three heuristics, every technique on, thresholds dropping by 10% of the
     * capacity, at most 8 candidates per point, stuck after 100 backtracks (the paper's example value), not
     * exhaustive, the skyline heuristic first.
     */
    public static final TelaMallocOptions DEFAULT =
            new TelaMallocOptions(true, true, true, true, true, 0.1, true, true, true, 8, 100, false, true);

    public TelaMallocOptions {
        if (!longestLifetime && !largestSize && !largestArea) {
            throw new IllegalArgumentException("at least one candidate heuristic must be on");
        }
        if (!(phaseStep > 0 && phaseStep <= 1)) {
            throw new IllegalArgumentException("phase step must lie in (0, 1], got " + phaseStep);
        }
        if (maxCandidates < 1) {
            throw new IllegalArgumentException("max candidates must be >= 1, got " + maxCandidates);
        }
        if (stuckThreshold < 0) {
            throw new IllegalArgumentException("stuck threshold must be >= 0, got " + stuckThreshold);
        }
        if (exhaustive && !backtracking) {
            throw new IllegalArgumentException("an exhaustive search needs major backtracks");
        }
    }

    public TelaMallocOptions withHeuristics(boolean longest, boolean largest, boolean area) {
        return new TelaMallocOptions(longest, largest, area, solverGuidedPlacement, contentionGrouping, phaseStep,
                backtracking, backjumping, prependCandidates, maxCandidates, stuckThreshold, exhaustive,
                heuristicFirst);
    }

    public TelaMallocOptions withSolverGuidedPlacement(boolean on) {
        return new TelaMallocOptions(longestLifetime, largestSize, largestArea, on, contentionGrouping, phaseStep,
                backtracking, backjumping, prependCandidates, maxCandidates, stuckThreshold, exhaustive,
                heuristicFirst);
    }

    public TelaMallocOptions withContentionGrouping(boolean on) {
        return new TelaMallocOptions(longestLifetime, largestSize, largestArea, solverGuidedPlacement, on, phaseStep,
                backtracking, backjumping, prependCandidates, maxCandidates, stuckThreshold, exhaustive,
                heuristicFirst);
    }

    public TelaMallocOptions withBacktracking(boolean on) {
        return new TelaMallocOptions(longestLifetime, largestSize, largestArea, solverGuidedPlacement,
                contentionGrouping, phaseStep, on, backjumping, prependCandidates, maxCandidates, stuckThreshold,
                exhaustive, heuristicFirst);
    }

    public TelaMallocOptions withBackjumping(boolean on) {
        return new TelaMallocOptions(longestLifetime, largestSize, largestArea, solverGuidedPlacement,
                contentionGrouping, phaseStep, backtracking, on, prependCandidates, maxCandidates, stuckThreshold,
                exhaustive, heuristicFirst);
    }

    public TelaMallocOptions withPrependCandidates(boolean on) {
        return new TelaMallocOptions(longestLifetime, largestSize, largestArea, solverGuidedPlacement,
                contentionGrouping, phaseStep, backtracking, backjumping, on, maxCandidates, stuckThreshold,
                exhaustive, heuristicFirst);
    }

    public TelaMallocOptions withStuckThreshold(int threshold) {
        return new TelaMallocOptions(longestLifetime, largestSize, largestArea, solverGuidedPlacement,
                contentionGrouping, phaseStep, backtracking, backjumping, prependCandidates, maxCandidates, threshold,
                exhaustive, heuristicFirst);
    }

    public TelaMallocOptions withExhaustive(boolean on) {
        return new TelaMallocOptions(longestLifetime, largestSize, largestArea, solverGuidedPlacement,
                contentionGrouping, phaseStep, backtracking, backjumping, prependCandidates, maxCandidates,
                stuckThreshold, on, heuristicFirst);
    }

    public TelaMallocOptions withHeuristicFirst(boolean on) {
        return new TelaMallocOptions(longestLifetime, largestSize, largestArea, solverGuidedPlacement,
                contentionGrouping, phaseStep, backtracking, backjumping, prependCandidates, maxCandidates,
                stuckThreshold, exhaustive, on);
    }
}
