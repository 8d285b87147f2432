package dev.memplan.baselines.replacement;

/**
 * A tensor on chip at a replacement event, as a policy sees it: where it is, whether it may be evicted (it is
 * not used by the operator about to run), when it is next used and was last used (timesteps), and whether
 * evicting it costs a spill (a produced tensor, not a graph output, without a host copy yet).
 */
public record Resident(int tensor, long offset, long size, boolean evictable, int nextUse, int lastUse,
                       boolean spillOnEvict) {

    /** Off-chip bytes evicting it costs: a reload (every resident is used again) plus the spill if one is due. */
    public long evictionCost() {
        return spillOnEvict ? 2 * size : size;
    }

    public long end() {
        return offset + size;
    }
}
