/**
 * MiniMalloc (Moffitt, ASPLOS 2023): exact packing of fixed-schedule buffers by canonical depth-first search
 * with cross-section inference and dominance. Entry point {@link
 * dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator}, switches in {@link
 * dev.memplan.baselines.allocation.minimalloc.MiniMallocOptions}.
 */
package dev.memplan.baselines.allocation.minimalloc;
