package dev.memplan.sweeps.bench;

import dev.memplan.sweeps.SweepException;
import java.util.List;

/** The bounds of a bench's counts: a count out of them is refused before any work, in one line. */
final class Bounds {
    /** Timed runs of one case: more only costs time, and a billion would not fit the heap. */
    static final int MAX_REPEATS = 1000;
    /** The widest beam a bench runs: 16 times the default width (4,096); a wider one only costs time and heap. */
    static final int MAX_BEAM = 65_536;

    private Bounds() {
    }

    /**
     * {@code value} when it is within {@code min..max}; else a user mistake naming {@code option} and what its
     * values are ({@code what}, "" or e.g. "beam widths ").
     */
    static int check(int value, int min, int max, String option, String what) {
        if (value < min) {
            throw new SweepException(option + " must be " + what + ">= " + min + ", got " + value);
        }
        if (value > max) {
            throw new SweepException(option + " must be " + what + "<= " + max + ", got " + value);
        }
        return value;
    }

    /** {@link #check} of every value of a list option; the list, unmodifiable. */
    static List<Integer> each(List<Integer> values, int min, int max, String option, String what) {
        values.forEach(v -> check(v, min, max, option, what));
        return List.copyOf(values);
    }
}
