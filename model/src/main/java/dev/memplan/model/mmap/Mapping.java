package dev.memplan.model.mmap;

import java.util.List;

/** A decision for every buffer of an instance, in the instance's buffer order. */
public record Mapping(List<Decision> decisions) {

    public Mapping {
        decisions = List.copyOf(decisions);
    }

    /** The game's return: the total benefit of the buffers placed in fast memory (Section 4.2, "Reward"). */
    public long reward(MmapInstance instance) {
        long sum = 0;
        for (int i = 0; i < decisions.size() && i < instance.size(); i++) {
            if (decisions.get(i).placed()) {
                sum += instance.buffer(i).benefit();
            }
        }
        return sum;
    }

    /** How many buffers take each action, indexed by {@link Action#ordinal()}. */
    public int[] actionCounts() {
        int[] counts = new int[Action.values().length];
        for (Decision d : decisions) {
            counts[d.action().ordinal()]++;
        }
        return counts;
    }
}
