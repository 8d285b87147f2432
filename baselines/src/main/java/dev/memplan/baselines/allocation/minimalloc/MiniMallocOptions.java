package dev.memplan.baselines.allocation.minimalloc;

import java.util.List;

/**
 * The search techniques of {@link MiniMallocAllocator}, one switch each, so that a benchmark can measure what
 * each one buys (as the reference program's {@code SolverParams}). {@link #DEFAULT} turns everything on.
 * Every combination stays sound and complete: a switch only changes how much is searched, never the answer.
 *
 * @param canonicalOnly        prunes partial solutions that are not canonical, i.e. not placed in
 *                             non-decreasing offset order with ties in preorder (paper section 6.1)
 * @param sectionInference     prunes when a cross section's unallocated buffers cannot all fit between its
 *                             floor and the capacity (paper eq. 3); off, only the floor itself is checked
 * @param monotonicFloor       raises every section floor to the offset just placed, since canonical search
 *                             places nothing lower afterwards (paper section 6.2, first strengthening)
 * @param unallocatedFloor     raises a section floor to the lowest viable offset of its unallocated buffers
 *                             (paper section 6.2, effective section height)
 * @param dominance            prunes a placement at or above the lowest height some unallocated buffer could
 *                             reach, which leaves a gap that buffer could fill (paper section 6.3)
 * @param dynamicOrdering      tries the unallocated buffers by lowest viable offset, preorder breaking ties
 *                             (paper section 7); off, in preorder only
 * @param staticPreordering    orders buffers by the {@link #preorderings} heuristics before search; off, in
 *                             input order
 * @param restarts             round-robin over the {@link #preorderings} with a node budget that doubles
 *                             each round (from twice the buffer count), so no single heuristic can get stuck;
 *                             off, each racing thread searches with one heuristic (the first ones of the
 *                             list) and no budget
 * @param dynamicDecomposition splits the unallocated buffers into independent sub-problems whenever a
 *                             placement leaves a moment that no unallocated buffer crosses (paper section 7)
 * @param preorderings         static preordering heuristics: strings over {@code W A T C L U O Z}, compared
 *                             letter by letter, larger first, input order breaking ties (see
 *                             {@link MiniMallocAllocator})
 */
public record MiniMallocOptions(
        boolean canonicalOnly,
        boolean sectionInference,
        boolean monotonicFloor,
        boolean unallocatedFloor,
        boolean dominance,
        boolean dynamicOrdering,
        boolean staticPreordering,
        boolean restarts,
        boolean dynamicDecomposition,
        List<String> preorderings) {

    /** The reference program's heuristics: width, area, section total in three orders. */
    public static final List<String> DEFAULT_PREORDERINGS = List.of("WAT", "TAW", "TWA");

    /** Every technique on, with {@link #DEFAULT_PREORDERINGS}. */
    public static final MiniMallocOptions DEFAULT =
            new MiniMallocOptions(true, true, true, true, true, true, true, true, true, DEFAULT_PREORDERINGS);

    public MiniMallocOptions {
        preorderings = List.copyOf(preorderings);
        if (preorderings.isEmpty()) {
            throw new IllegalArgumentException("at least one preordering heuristic is needed");
        }
        for (String h : preorderings) {
            if (h.isEmpty() || !h.chars().allMatch(c -> Preordering.LETTERS.indexOf(c) >= 0)) {
                throw new IllegalArgumentException("preordering '" + h + "': use letters of "
                        + Preordering.LETTERS);
            }
        }
    }

    public MiniMallocOptions withCanonicalOnly(boolean on) {
        return new MiniMallocOptions(on, sectionInference, monotonicFloor, unallocatedFloor, dominance,
                dynamicOrdering, staticPreordering, restarts, dynamicDecomposition, preorderings);
    }

    public MiniMallocOptions withSectionInference(boolean on) {
        return new MiniMallocOptions(canonicalOnly, on, monotonicFloor, unallocatedFloor, dominance,
                dynamicOrdering, staticPreordering, restarts, dynamicDecomposition, preorderings);
    }

    public MiniMallocOptions withMonotonicFloor(boolean on) {
        return new MiniMallocOptions(canonicalOnly, sectionInference, on, unallocatedFloor, dominance,
                dynamicOrdering, staticPreordering, restarts, dynamicDecomposition, preorderings);
    }

    public MiniMallocOptions withUnallocatedFloor(boolean on) {
        return new MiniMallocOptions(canonicalOnly, sectionInference, monotonicFloor, on, dominance,
                dynamicOrdering, staticPreordering, restarts, dynamicDecomposition, preorderings);
    }

    public MiniMallocOptions withDominance(boolean on) {
        return new MiniMallocOptions(canonicalOnly, sectionInference, monotonicFloor, unallocatedFloor, on,
                dynamicOrdering, staticPreordering, restarts, dynamicDecomposition, preorderings);
    }

    public MiniMallocOptions withDynamicOrdering(boolean on) {
        return new MiniMallocOptions(canonicalOnly, sectionInference, monotonicFloor, unallocatedFloor, dominance,
                on, staticPreordering, restarts, dynamicDecomposition, preorderings);
    }

    public MiniMallocOptions withStaticPreordering(boolean on) {
        return new MiniMallocOptions(canonicalOnly, sectionInference, monotonicFloor, unallocatedFloor, dominance,
                dynamicOrdering, on, restarts, dynamicDecomposition, preorderings);
    }

    public MiniMallocOptions withRestarts(boolean on) {
        return new MiniMallocOptions(canonicalOnly, sectionInference, monotonicFloor, unallocatedFloor, dominance,
                dynamicOrdering, staticPreordering, on, dynamicDecomposition, preorderings);
    }

    public MiniMallocOptions withDynamicDecomposition(boolean on) {
        return new MiniMallocOptions(canonicalOnly, sectionInference, monotonicFloor, unallocatedFloor, dominance,
                dynamicOrdering, staticPreordering, restarts, on, preorderings);
    }

    public MiniMallocOptions withPreorderings(List<String> heuristics) {
        return new MiniMallocOptions(canonicalOnly, sectionInference, monotonicFloor, unallocatedFloor, dominance,
                dynamicOrdering, staticPreordering, restarts, dynamicDecomposition, heuristics);
    }
}
