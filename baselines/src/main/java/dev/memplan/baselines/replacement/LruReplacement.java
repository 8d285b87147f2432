package dev.memplan.baselines.replacement;

import java.util.Comparator;
import java.util.List;

/**
 * Least recently used: evict the resident tensor whose last use (or creation or load) lies furthest in the
 * past; ties go to the larger tensor, then the lower index. One victim per call.
 */
public final class LruReplacement implements ReplacementPolicy {

    @Override
    public String name() {
        return "lru";
    }

    @Override
    public List<Integer> victims(ReplacementEvent event) {
        return event.residents().stream().filter(Resident::evictable)
                .min(Comparator.comparingInt(Resident::lastUse).thenComparing(Comparator.comparingLong(Resident::size)
                        .reversed()).thenComparingInt(Resident::tensor))
                .map(r -> List.of(r.tensor())).orElse(List.of());
    }
}
