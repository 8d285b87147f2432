package dev.memplan.baselines.allocation.minimalloc;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The search techniques of {@link MiniMallocAllocator}, one switch each, so that a benchmark can measure what
 * each one buys (as the reference program's {@code SolverParams}). {@link #DEFAULT} turns everything on.
 * Every combination stays sound and complete: a switch only changes how much is searched, never the answer.
 *
 * @param off          the techniques switched off; every other one is on
 * @param preorderings static preordering heuristics: strings over {@code W A T C L U O Z}, compared letter by
 *                     letter, larger first, input order breaking ties (see {@link MiniMallocAllocator})
 */
public record MiniMallocOptions(Set<Technique> off, List<String> preorderings) {

    /** One search technique; every list of them (bench ablations, tests) is generated from {@link #values()}. */
    public enum Technique {
        /**
         * Prunes partial solutions that are not canonical, i.e. not placed in non-decreasing offset order with
         * ties in preorder (paper section 6.1).
         */
        CANONICAL("canonical"),
        /**
         * Prunes when a cross section's unallocated buffers cannot all fit between its floor and the capacity
         * (paper eq. 3); off, only the floor itself is checked.
         */
        SECTION_INFERENCE("section-inference"),
        /**
         * Raises every section floor to the offset just placed, since canonical search places nothing lower
         * afterwards (paper section 6.2, first strengthening).
         */
        MONOTONIC_FLOOR("monotonic-floor"),
        /** Raises a section floor to the lowest viable offset of its unallocated buffers (paper section 6.2). */
        UNALLOCATED_FLOOR("unallocated-floor"),
        /**
         * Prunes a placement at or above the lowest height some unallocated buffer could reach, which leaves a
         * gap that buffer could fill (paper section 6.3).
         */
        DOMINANCE("dominance"),
        /**
         * Tries the unallocated buffers by lowest viable offset, preorder breaking ties (paper section 7); off,
         * in preorder only.
         */
        DYNAMIC_ORDERING("dynamic-ordering"),
        /** Orders buffers by the {@link #preorderings} heuristics before search; off, in input order. */
        PREORDERING("preordering"),
        /**
         * Round-robin over the {@link #preorderings} with a node budget that doubles each round (from twice the
         * buffer count), so no single heuristic can get stuck; off, each racing thread searches with one
         * heuristic (the first ones of the list) and no budget.
         */
        RESTARTS("restarts"),
        /**
         * Splits the unallocated buffers into independent sub-problems whenever a placement leaves a moment that
         * no unallocated buffer crosses (paper section 7).
         */
        DECOMPOSITION("decomposition");

        private final String id;

        Technique(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        /** The technique of that id; the message lists the ids. */
        public static Technique parse(String text) {
            for (Technique t : values()) {
                if (t.id.equals(text.strip().toLowerCase(Locale.ROOT))) {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown MiniMalloc technique '" + text + "': use one of "
                    + String.join(", ", Arrays.stream(values()).map(Technique::id).toList()));
        }
    }

    /** The reference program's heuristics: width, area, section total in three orders. */
    public static final List<String> DEFAULT_PREORDERINGS = List.of("WAT", "TAW", "TWA");

    /** Every technique on, with {@link #DEFAULT_PREORDERINGS}. */
    public static final MiniMallocOptions DEFAULT = new MiniMallocOptions(Set.of(), DEFAULT_PREORDERINGS);

    public MiniMallocOptions {
        off = off.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(off));
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

    public boolean uses(Technique technique) {
        return !off.contains(technique);
    }

    /** These options with {@code technique} switched off as well. */
    public MiniMallocOptions without(Technique technique) {
        Set<Technique> more = EnumSet.of(technique);
        more.addAll(off);
        return new MiniMallocOptions(more, preorderings);
    }

    public MiniMallocOptions withPreorderings(List<String> heuristics) {
        return new MiniMallocOptions(off, heuristics);
    }
}
