package dev.memplan.baselines.allocation.minimalloc;

/**
 * Static preordering of buffers before search. The paper's search (Moffitt, ASPLOS 2023, section 7) breaks
 * ties between equal viable offsets by a fixed buffer order; which order is a heuristic. The letters are
 * those of the reference program (google/minimalloc {@code PreorderingComparator}); the paper text names
 * none. Each letter is a key compared larger-first, the next letter breaking ties, then input order:
 * <ul>
 *   <li>{@code W} width: lifespan length {@code upper - lower};</li>
 *   <li>{@code A} area: size times width;</li>
 *   <li>{@code T} total: the largest sum of unallocated sizes in any cross section the buffer lies in;</li>
 *   <li>{@code C} cross sections spanned;</li>
 *   <li>{@code L} lower: start time (later first);</li>
 *   <li>{@code U} upper: end time (later first);</li>
 *   <li>{@code O} overlaps: number of buffers it overlaps in time;</li>
 *   <li>{@code Z} size.</li>
 * </ul>
 */
final class Preordering {
    static final String LETTERS = "WATCLUOZ";

    private Preordering() {
    }

    /**
     * Sorts {@code buffers} in place by {@code heuristic}; {@code sectionTotal} holds the current unallocated
     * size of each section (for {@code T}).
     */
    static void sort(int[] buffers, String heuristic, Sweep sweep, long[] size, long[] lower, long[] upper,
                     long[] sectionTotal) {
        int k = buffers.length;
        int[] original = buffers.clone();
        long[][] keys = new long[heuristic.length()][k];
        for (int h = 0; h < heuristic.length(); h++) {
            for (int p = 0; p < k; p++) {
                keys[h][p] = key(heuristic.charAt(h), original[p], sweep, size, lower, upper, sectionTotal);
            }
        }
        int[] positions = new int[k];
        for (int p = 0; p < k; p++) {
            positions[p] = p;
        }
        IntSort.sort(positions, 0, k, (a, b) -> {
            for (long[] key : keys) {
                if (key[a] != key[b]) {
                    return key[a] > key[b] ? -1 : 1;
                }
            }
            return Integer.compare(original[a], original[b]);
        }, new int[k]);
        for (int p = 0; p < k; p++) {
            buffers[p] = original[positions[p]];
        }
    }

    private static long key(char letter, int b, Sweep sweep, long[] size, long[] lower, long[] upper,
                            long[] sectionTotal) {
        switch (letter) {
            case 'W':
                return upper[b] - lower[b];
            case 'A': {
                long width = upper[b] - lower[b];
                // Saturate: only the order matters, and beyond 2^63 it no longer can be told apart.
                return Math.multiplyHigh(size[b], width) == 0 && size[b] * width >= 0 ? size[b] * width
                        : Long.MAX_VALUE;
            }
            case 'T': {
                long total = 0;
                for (int s = sweep.sectionLo[b]; s < sweep.sectionHi[b]; s++) {
                    total = Math.max(total, sectionTotal[s]);
                }
                return total;
            }
            case 'C':
                return sweep.sectionHi[b] - sweep.sectionLo[b];
            case 'L':
                return lower[b];
            case 'U':
                return upper[b];
            case 'O':
                return sweep.overlapStart[b + 1] - sweep.overlapStart[b];
            case 'Z':
                return size[b];
            default:
                throw new IllegalArgumentException("unknown preordering letter '" + letter + "'");
        }
    }
}
