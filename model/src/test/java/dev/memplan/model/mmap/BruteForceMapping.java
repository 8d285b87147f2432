package dev.memplan.model.mmap;

import java.util.ArrayList;
import java.util.List;

/**
 * Test oracle: the best reward of any valid mapping of a tiny instance, by trying every action, every interval in
 * the live range and every offset of every buffer in order, cutting a branch as soon as the prefix breaks a rule of
 * the {@link MappingChecker} (every rule of a prefix is a rule of the whole). Exponential: a handful of buffers,
 * a few instructions, a capacity of a few bytes.
 */
public final class BruteForceMapping {
    private final MmapInstance instance;
    private final List<MmapInstance> prefixes = new ArrayList<>();
    private long best = -1;
    private Mapping bestMapping;

    private BruteForceMapping(MmapInstance instance) {
        this.instance = instance;
        for (int k = 0; k <= instance.size(); k++) {
            prefixes.add(new MmapInstance(instance.name(), instance.capacity(), instance.supply(),
                    instance.buffers().subList(0, k)));
        }
    }

    /** The optimum reward; -1 never happens since dropping everything is valid. */
    public static long optimum(MmapInstance instance) {
        return solve(instance).reward(instance);
    }

    /** An optimal mapping. */
    public static Mapping solve(MmapInstance instance) {
        BruteForceMapping search = new BruteForceMapping(instance);
        search.extend(new ArrayList<>());
        return search.bestMapping;
    }

    private void extend(List<Decision> prefix) {
        int k = prefix.size();
        if (!MappingChecker.check(prefixes.get(k), new Mapping(prefix)).valid()) {
            return;
        }
        if (k == instance.size()) {
            long reward = new Mapping(prefix).reward(instance);
            if (reward > best) {
                best = reward;
                bestMapping = new Mapping(prefix);
            }
            return;
        }
        MmapBuffer b = instance.buffer(k);
        for (Decision d : options(b)) {
            prefix.add(d);
            extend(prefix);
            prefix.remove(k);
        }
    }

    private List<Decision> options(MmapBuffer b) {
        List<Decision> all = new ArrayList<>();
        all.add(Decision.DROP);
        for (Action a : List.of(Action.COPY, Action.NOCOPY)) {
            for (int s = b.liveFirst(); s <= b.time(); s++) {
                for (int e = b.time(); e <= b.liveLast(); e++) {
                    if ((b.output() ? s == b.time() : e == b.time())) {
                        for (long o = 0; o + b.size() <= instance.capacity(); o++) {
                            all.add(new Decision(a, s, e, o));
                        }
                    }
                }
            }
        }
        return all;
    }
}
