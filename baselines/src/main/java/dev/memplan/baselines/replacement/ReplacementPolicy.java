package dev.memplan.baselines.replacement;

import java.util.List;

/**
 * Decides which tensors leave the scratchpad when a new one does not fit (COSMA paper, Section 5: "tensor
 * replacement"). The simulator evicts what the policy returns and tries to place the tensor again; it asks
 * again while the gap is still missing, and compacts when the policy has nothing left to offer.
 */
public interface ReplacementPolicy {

    /** A short name used in scheme names: {@code belady}, {@code greedy}, {@code lru}. */
    String name();

    /** Victims among {@code event}'s evictable residents (tensor indices); empty when none would help. */
    List<Integer> victims(ReplacementEvent event);
}
