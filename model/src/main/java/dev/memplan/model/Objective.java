package dev.memplan.model;

/**
 * The objective with recomputation (memory-model.md, "Recomputation"): non-compulsory traffic + lambda x
 * recompute cost, where lambda >= 0 is the user's weight in bytes per cost unit. Reports give the three numbers
 * apart ({@link #toString()}); without recomputes, or with lambda 0, the value is COSMA's objective (eq. 12), the
 * non-compulsory traffic.
 *
 * @param traffic non-compulsory traffic in bytes
 * @param recomputeCost the sum of the costs of the runs beyond the first
 * @param lambda bytes per cost unit, finite and >= 0
 */
public record Objective(long traffic, long recomputeCost, double lambda) {

    public Objective {
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("the recompute weight lambda must be a finite number >= 0 (bytes per"
                    + " cost unit), got " + lambda);
        }
        if (traffic < 0 || recomputeCost < 0) {
            throw new IllegalArgumentException("traffic and recompute cost are >= 0, got " + traffic + " and "
                    + recomputeCost);
        }
    }

    /** The objective of a checked plan's traffic ({@link CheckReport#traffic()}) under weight {@code lambda}. */
    public static Objective of(Traffic traffic, double lambda) {
        return new Objective(traffic.nonCompulsory(), traffic.recomputeCost(), lambda);
    }

    /**
     * traffic + lambda x recompute cost, in bytes. Exactly the traffic when nothing is recomputed or lambda is 0;
     * otherwise a double, exact while the sum stays below 2^53 ({@link ByteRange#MAX}).
     */
    public double value() {
        return recomputeCost == 0 || lambda == 0 ? traffic : traffic + lambda * recomputeCost;
    }

    /** The three numbers apart and the value, e.g. {@code 4096 + 2 x 300 = 4696}. */
    @Override
    public String toString() {
        return traffic + " + " + number(lambda) + " x " + recomputeCost + " = " + number(value());
    }

    /** Plain digits, never scientific notation: 14173852.5, not 1.41738525E7; 0.00390625, not 3.90625E-3. */
    public static String number(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x)
                : java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
    }
}
