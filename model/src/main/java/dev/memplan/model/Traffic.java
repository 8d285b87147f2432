package dev.memplan.model;

/**
 * Off-chip traffic of a plan in bytes (memory-model.md, "Traffic"), and the runs it repeats instead
 * ("Recomputation").
 *
 * @param compulsory one load of every used host tensor plus one write of every graph output
 * @param nonCompulsory the COSMA objective (eq. 12): all loaded bytes minus the compulsory first loads of host
 *     tensors, plus the spilled bytes
 * @param loads bytes copied in by all loaded segments, the compulsory first loads of host tensors included
 * @param spills bytes written out by spills that are charged: produced tensors, not graph outputs, with at
 *     least one loaded segment (each such tensor once)
 * @param recomputes runs beyond the first of each operator
 * @param recomputeCost the sum of the operators' costs over those runs ({@link Graph#cost(int)})
 */
public record Traffic(long compulsory, long nonCompulsory, long loads, long spills, long recomputes,
                      long recomputeCost) {
    public static final Traffic ZERO = new Traffic(0, 0, 0, 0);

    /** The traffic of a plan that runs every operator once. */
    public Traffic(long compulsory, long nonCompulsory, long loads, long spills) {
        this(compulsory, nonCompulsory, loads, spills, 0, 0);
    }

    /** True when the plan runs some operator more than once (or records a recompute cost). */
    public boolean recomputing() {
        return recomputes != 0 || recomputeCost != 0;
    }

    /** The record's usual text, without the recompute figures when there are none (as before recomputation). */
    @Override
    public String toString() {
        return "Traffic[compulsory=" + compulsory + ", nonCompulsory=" + nonCompulsory + ", loads=" + loads
                + ", spills=" + spills + (recomputing() ? ", recomputes=" + recomputes + ", recomputeCost="
                + recomputeCost : "") + "]";
    }
}
