package dev.memplan.baselines.replacement;

import java.util.Comparator;
import java.util.List;

/**
 * Belady's policy (L. A. Belady, "A study of replacement algorithms for a virtual-storage computer", IBM
 * Systems Journal, 1966): evict the resident tensor whose next use is furthest in the future; ties go to the
 * larger tensor, then the lower index. Optimal for equal-sized pages, not for tensors of different sizes
 * placed at addresses (COSMA paper, Section 2). One victim per call: the simulator asks again while no gap fits.
 */
public final class BeladyReplacement implements ReplacementPolicy {

    @Override
    public String name() {
        return "belady";
    }

    @Override
    public List<Integer> victims(ReplacementEvent event) {
        return event.residents().stream().filter(Resident::evictable)
                .max(Comparator.comparingInt(Resident::nextUse).thenComparingLong(Resident::size)
                        .thenComparing(Comparator.comparingInt(Resident::tensor).reversed()))
                .map(r -> List.of(r.tensor())).orElse(List.of());
    }
}
