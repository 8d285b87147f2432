/**
 * TelaMalloc (Maas et al., ASPLOS 2023): the contention-ordered skyline heuristic of its section 3.1
 * ({@link dev.memplan.baselines.allocation.telamalloc.SkylineAllocator}) and the solver-guided search of its
 * section 5 ({@link dev.memplan.baselines.allocation.telamalloc.TelaMallocAllocator}), for fixed-schedule buffers.
 */
package dev.memplan.baselines.allocation.telamalloc;
