package dev.memplan.model;

/**
 * The seam for fixed-schedule packing (docs/memory-model.md, "Fixed-schedule buffers"): buffers and a capacity in, an {@link Allocation}
 * out. A placement in the result has passed the {@link BufferChecker}; "no placement found" and "proven
 * infeasible" are different statuses.
 */
public interface Allocator {

    String name();

    Allocation allocate(BufferSet buffers, long capacity, Limits limits);
}
