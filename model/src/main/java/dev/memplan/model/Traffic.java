package dev.memplan.model;

/**
 * Off-chip traffic of a plan in bytes (memory-model.md, "Traffic").
 *
 * @param compulsory one load of every used host tensor plus one write of every graph output
 * @param nonCompulsory the COSMA objective (eq. 12): all loaded bytes minus the compulsory first loads of host
 *     tensors, plus the spilled bytes
 * @param loads bytes copied in by all loaded segments, the compulsory first loads of host tensors included
 * @param spills bytes written out by spills that are charged: produced tensors, not graph outputs, with at
 *     least one loaded segment (each such tensor once)
 */
public record Traffic(long compulsory, long nonCompulsory, long loads, long spills) {
    public static final Traffic ZERO = new Traffic(0, 0, 0, 0);

}
