package dev.memplan.baselines.mmap;

import dev.memplan.model.mmap.Action;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.Mapping;
import dev.memplan.model.mmap.MmapInstance;
import java.util.Arrays;

/**
 * The MMapGame of the MMap-MuZero paper (Section 4.2): the buffers are decided one by one in order, each by
 * Copy, NoCopy or Drop, with the intervals and offsets of Appendix A ({@link FastMemory}). Drop is illegal once the
 * buffer's alias group has a placed member; Copy and NoCopy once it has a dropped one. A state with no legal
 * action is infeasible; {@link #dropBackup()} is the paper's Drop-backup (Section 4.3.2): return to the latest
 * prefix after which no alias group is open (so dropping everything after it is valid) and from then on drop the
 * alias group that could not be placed. Moves can be undone, so a search can explore from a state and come back.
 */
final class MmapGame {
    private final MmapInstance in;
    private final FastMemory memory;
    /** lastBackup[k]: the latest prefix length j <= k with no open alias group. */
    private final int[] lastBackup;
    /** Per alias group (keyed by its first buffer): dropped for good by a Drop-backup. */
    private final boolean[] forcedDrop;
    private int backups;

    MmapGame(MmapInstance in) {
        this.in = in;
        this.memory = new FastMemory(in);
        this.lastBackup = new int[in.size() + 1];
        this.forcedDrop = new boolean[in.size()];
    }

    MmapInstance instance() {
        return in;
    }

    /** The buffer to decide next. */
    int step() {
        return memory.depth();
    }

    boolean done() {
        return step() == in.size();
    }

    long reward() {
        return memory.reward();
    }

    /** Drop-backups taken so far. */
    int backups() {
        return backups;
    }

    /**
     * The outcome of each action for the current buffer, indexed by {@link Action#ordinal()}; null where illegal.
     * All null: the state is infeasible.
     */
    Decision[] options() {
        int i = step();
        Decision[] options = new Decision[Action.values().length];
        boolean mustPlace = memory.groupHasPlaced(i);
        if (!mustPlace) {
            options[Action.DROP.ordinal()] = Decision.DROP;
        }
        if (!forcedDrop[in.aliasGroup(i)[0]] && !memory.groupHasDropped(i)) {
            options[Action.COPY.ordinal()] = memory.copyOption(i);
            options[Action.NOCOPY.ordinal()] = memory.noCopyOption(i);
        }
        return options;
    }

    static boolean infeasible(Decision[] options) {
        return legalCount(options) == 0;
    }

    /** The number of legal options. */
    static int legalCount(Decision[] options) {
        int legal = 0;
        for (Decision d : options) {
            legal += d == null ? 0 : 1;
        }
        return legal;
    }

    /** Plays a legal option of {@link #options()}. */
    void play(Decision d) {
        memory.decide(step(), d);
        int k = step();
        lastBackup[k] = memory.openGroups() == 0 ? k : lastBackup[k - 1];
    }

    void undo() {
        memory.undo();
    }

    /** The reward at the latest backup point: what a Drop-backup now would keep. */
    long backupReward() {
        int k = lastBackup[step()];
        long lost = 0;
        for (int d = step() - 1; d >= k; d--) {
            Decision x = memory.decision(d);
            if (x.placed()) {
                lost += in.buffer(d).benefit();
            }
        }
        return reward() - lost;
    }

    /** The Drop-backup of Section 4.3.2, taken in an infeasible state. */
    void dropBackup() {
        int group = in.aliasGroup(step())[0];
        int k = lastBackup[step()];
        while (step() > k) {
            undo();
        }
        forcedDrop[group] = true;
        backups++;
    }

    Mapping mapping() {
        Decision[] ds = new Decision[in.size()];
        for (int i = 0; i < ds.length; i++) {
            ds[i] = memory.decision(i);
        }
        return new Mapping(Arrays.asList(ds));
    }
}
