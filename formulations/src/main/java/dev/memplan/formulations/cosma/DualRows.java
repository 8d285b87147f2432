package dev.memplan.formulations.cosma;

import com.google.ortools.linearsolver.MPConstraint;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows (sum coef x >= rhs) of a covering LP, kept beside the solver so that a lower bound can be read from any row
 * duals, optimal or not: with pi = max(0, dual), pi.b + sum_j min(0, c_j - (A^T pi)_j) x upper_j is a bound by weak
 * (Lagrangian) duality whatever the solver's tolerances. This class gives the rows' part of that sum; the columns'
 * part is the caller's, who knows its costs and bounds.
 */
final class DualRows {

    private final List<MPConstraint> rows = new ArrayList<>();
    private final List<int[]> vars = new ArrayList<>();
    private final List<double[]> coefs = new ArrayList<>();
    private final List<Double> rhs = new ArrayList<>();

    /** Keeps row {@code c}: sum of {@code coef[i]} times variable {@code v[i]} >= {@code rhs}. */
    void add(MPConstraint c, int[] v, double[] coef, double rhs) {
        rows.add(c);
        vars.add(v);
        coefs.add(coef);
        this.rhs.add(rhs);
    }

    /**
     * The rows' part of a bound read from the duals of the last solve.
     *
     * @param value pi.b
     * @param magnitude the sum of the sizes of its terms and of pi A's, for the caller's rounding margin
     */
    record Part(double value, double magnitude) {
    }

    /** The rows' part from the duals of the last solve; subtracts pi A from {@code reduced} (the costs on entry). */
    Part lagrangian(double[] reduced) {
        double bound = 0;
        double magnitude = 0;
        for (int r = 0; r < rows.size(); r++) {
            double pi = Math.max(0, rows.get(r).dualValue());
            if (pi == 0) {
                continue;
            }
            bound += pi * rhs.get(r);
            magnitude += Math.abs(pi * rhs.get(r));
            int[] v = vars.get(r);
            double[] coef = coefs.get(r);
            for (int i = 0; i < v.length; i++) {
                reduced[v[i]] -= pi * coef[i];
                magnitude += Math.abs(pi * coef[i]);
            }
        }
        return new Part(bound, magnitude);
    }
}
