package dev.memplan.baselines.mmap;

import dev.memplan.model.mmap.Action;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.MmapBuffer;
import dev.memplan.model.mmap.MmapInstance;
import java.util.Arrays;

/**
 * The state of a mapping under construction, shared by the players: the decisions made so far, the fast-memory
 * allocations indexed by logical time, the steps taken by copies and the state of every alias group; decisions are
 * undone last first. The options it offers follow Appendix A of the MMap-MuZero paper: a Copy of an input starts
 * at the latest step whose free copy steps up to its time supply its demand (an output's copy ends at the earliest
 * such step), a NoCopy extends the latest earlier allocation of its tensor, and the offset is the lowest that is
 * free over the whole interval (first fit), or the offset its alias group already holds.
 *
 * <p>First fit over {@code [s, e]} costs the allocations live in that window plus their sort; memory is the sum of
 * the placed intervals' lengths.
 */
final class FastMemory {
    private final MmapInstance in;
    private final Decision[] decisions;
    private final int[][] live;
    private final int[] liveCount;
    private final boolean[] copyBusy;
    private final int[] stack;
    private int depth;
    private final int[] seen;
    private int stamp;
    /** Per alias group, keyed by its first buffer: members placed, members dropped. */
    private final int[] groupPlaced;
    private final int[] groupDropped;
    private int openGroups;
    private long reward;

    FastMemory(MmapInstance in) {
        this.in = in;
        int n = in.size();
        decisions = new Decision[n];
        live = new int[in.instructions()][];
        liveCount = new int[in.instructions()];
        copyBusy = new boolean[in.instructions()];
        stack = new int[n];
        seen = new int[n];
        groupPlaced = new int[n];
        groupDropped = new int[n];
    }

    MmapInstance instance() {
        return in;
    }

    Decision decision(int i) {
        return decisions[i];
    }

    long reward() {
        return reward;
    }

    /** Decisions made, in order of making. */
    int depth() {
        return depth;
    }

    /** Alias groups with a placed member and an undecided one: while none is open, dropping the rest is valid. */
    int openGroups() {
        return openGroups;
    }

    private int key(int i) {
        return in.aliasGroup(i)[0];
    }

    boolean groupHasPlaced(int i) {
        return groupPlaced[key(i)] > 0;
    }

    boolean groupHasDropped(int i) {
        return groupDropped[key(i)] > 0;
    }

    /** The offset of a placed member of i's group, or -1. */
    private long groupOffset(int i) {
        if (!groupHasPlaced(i)) {
            return -1;
        }
        for (int j : in.aliasGroup(i)) {
            if (decisions[j] != null && decisions[j].placed()) {
                return decisions[j].offset();
            }
        }
        throw new IllegalStateException("bug: group counter out of step");
    }

    /** Buffer i placed with a copy as Appendix A defines it, or null when its copy or its space is missing. */
    Decision copyOption(int i) {
        if (groupHasDropped(i)) {
            return null;
        }
        MmapBuffer b = in.buffer(i);
        long need = b.demand();
        int start;
        int end;
        if (b.output()) {
            start = b.time();
            end = b.time();
            long got = 0;
            while (got < need) {
                end++;
                if (end > b.liveLast() || copyBusy[end]) {
                    return null;
                }
                got += in.supply(end);
            }
        } else {
            end = b.time();
            start = b.time();
            long got = 0;
            while (got < need) {
                start--;
                if (start < b.liveFirst() || copyBusy[start]) {
                    return null;
                }
                got += in.supply(start);
            }
        }
        long offset = offset(i, start, end);
        return offset < 0 ? null : new Decision(Action.COPY, start, end, offset);
    }

    /** Buffer i placed by extending the latest earlier allocation of its tensor, or null. */
    Decision noCopyOption(int i) {
        if (groupHasDropped(i)) {
            return null;
        }
        MmapBuffer b = in.buffer(i);
        int start;
        int end;
        if (b.output()) {
            boolean source = false;
            for (int j : in.earlierOfTensor(i)) {
                source |= decisions[j] != null && decisions[j].placed() && decisions[j].start() <= b.time();
            }
            if (!source) {
                return null;
            }
            start = b.time();
            end = b.liveLast();
        } else {
            int latest = -1;
            for (int j : in.earlierOfTensor(i)) {
                Decision d = decisions[j];
                if (d != null && d.placed() && d.start() <= b.time() - 1) {
                    latest = Math.max(latest, Math.min(d.end(), b.time() - 1));
                }
            }
            if (latest < 0 || latest + 1 < b.liveFirst()) {
                return null;
            }
            start = latest + 1;
            end = b.time();
        }
        long offset = offset(i, start, end);
        return offset < 0 ? null : new Decision(Action.NOCOPY, start, end, offset);
    }

    /** The group's offset if it is free, else the lowest free offset over [start, end]; -1 if none. */
    private long offset(int i, int start, int end) {
        long size = in.buffer(i).size();
        if (size > in.capacity()) {
            return -1;
        }
        long forced = groupOffset(i);
        long[][] used = usedRanges(start, end);
        if (forced >= 0) {
            for (long[] r : used) {
                if (r[0] < forced + size && forced < r[1]) {
                    return -1;
                }
            }
            return forced;
        }
        Arrays.sort(used, (x, y) -> Long.compare(x[0], y[0]));
        long candidate = 0;
        for (long[] r : used) {
            if (r[0] >= candidate + size) {
                break;
            }
            candidate = Math.max(candidate, r[1]);
        }
        return candidate + size <= in.capacity() ? candidate : -1;
    }

    private long[][] usedRanges(int start, int end) {
        stamp++;
        int count = 0;
        for (int t = start; t <= end; t++) {
            for (int k = 0; k < liveCount[t]; k++) {
                int j = live[t][k];
                if (seen[j] != stamp) {
                    seen[j] = stamp;
                    count++;
                }
            }
        }
        long[][] used = new long[count][];
        stamp++;
        int c = 0;
        for (int t = start; t <= end; t++) {
            for (int k = 0; k < liveCount[t]; k++) {
                int j = live[t][k];
                if (seen[j] != stamp) {
                    seen[j] = stamp;
                    used[c++] = new long[] {decisions[j].offset(), decisions[j].offset() + in.buffer(j).size()};
                }
            }
        }
        return used;
    }

    /** Records a decision for buffer i (undecided so far). */
    void decide(int i, Decision d) {
        int g = key(i);
        boolean wasOpen = isOpen(g);
        decisions[i] = d;
        stack[depth++] = i;
        if (d.placed()) {
            groupPlaced[g]++;
            reward += in.buffer(i).benefit();
            for (int t = d.start(); t <= d.end(); t++) {
                if (live[t] == null) {
                    live[t] = new int[4];
                } else if (liveCount[t] == live[t].length) {
                    live[t] = Arrays.copyOf(live[t], live[t].length * 2);
                }
                live[t][liveCount[t]++] = i;
            }
            markCopy(i, d, true);
        } else {
            groupDropped[g]++;
        }
        openGroups += (isOpen(g) ? 1 : 0) - (wasOpen ? 1 : 0);
    }

    /** Undoes the last decision; returns its buffer. */
    int undo() {
        int i = stack[--depth];
        int g = key(i);
        boolean wasOpen = isOpen(g);
        Decision d = decisions[i];
        if (d.placed()) {
            groupPlaced[g]--;
            reward -= in.buffer(i).benefit();
            for (int t = d.start(); t <= d.end(); t++) {
                if (live[t][--liveCount[t]] != i) {
                    throw new IllegalStateException("bug: undo out of order");
                }
            }
            markCopy(i, d, false);
        } else {
            groupDropped[g]--;
        }
        decisions[i] = null;
        openGroups += (isOpen(g) ? 1 : 0) - (wasOpen ? 1 : 0);
        return i;
    }

    private boolean isOpen(int g) {
        return groupPlaced[g] > 0 && groupPlaced[g] + groupDropped[g] < in.aliasGroup(g).length;
    }

    private void markCopy(int i, Decision d, boolean busy) {
        if (d.action() != Action.COPY) {
            return;
        }
        MmapBuffer b = in.buffer(i);
        int from = b.output() ? b.time() + 1 : d.start();
        int to = b.output() ? d.end() : b.time() - 1;
        for (int t = from; t <= to; t++) {
            copyBusy[t] = busy;
        }
    }
}
