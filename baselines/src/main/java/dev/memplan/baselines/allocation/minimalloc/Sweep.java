package dev.memplan.baselines.allocation.minimalloc;

import dev.memplan.model.SortedLongs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The static structure MiniMalloc searches over (Moffitt, ASPLOS 2023, section 6.2): the cross sections,
 * each buffer's range of sections, the pairwise temporal overlaps, and the cuts between adjacent sections.
 *
 * <p>One cross section is made at every distinct end time t: the buffers live just before t
 * ({@code lower < t <= upper}). Every set of buffers live at one moment lies inside one of these, so
 * bounding every section bounds every moment; the buffers of a section pairwise overlap in time. A buffer
 * lies in a contiguous range of sections {@code [sectionLo, sectionHi)}. The cut between sections k and k+1
 * counts the buffers lying in both; where it is zero the two sides are independent problems (the paper's
 * temporal decomposition, section 7), which gives the initial {@link #partitions}.
 *
 * <p>Time O(n log n + p + m) for n buffers, p overlapping pairs and m (buffer, section) memberships.
 * Immutable after construction and shared by all search threads.
 */
final class Sweep {
    final int n;
    final int sectionCount;
    /** Sections of buffer i: {@code [sectionLo[i], sectionHi[i])}. */
    final int[] sectionLo;
    final int[] sectionHi;
    /** Members of section s: {@code members[memberStart[s] .. memberStart[s + 1])}. */
    final int[] memberStart;
    final int[] members;
    /** Buffers overlapping buffer i in time: {@code overlaps[overlapStart[i] .. overlapStart[i + 1])}. */
    final int[] overlapStart;
    final int[] overlaps;
    /**
     * Sections whose content changes when buffer i is placed: its own and those of every buffer it overlaps,
     * {@code [reachLo[i], reachHi[i])}. Contiguous, as all those section ranges meet i's.
     */
    final int[] reachLo;
    final int[] reachHi;
    /** {@code cuts[k]}: buffers lying in both section k and k + 1. */
    final int[] cuts;
    /** Independent sub-problems: maximal section ranges with no zero cut inside. */
    final List<Part> partitions;

    /** A section range {@code [lo, hi)} and the buffers whose sections lie inside it. */
    record Part(int lo, int hi, int[] buffers) {
    }

    Sweep(long[] lower, long[] upper) {
        n = lower.length;
        long[] ends = distinctSorted(upper);
        sectionCount = ends.length;
        sectionLo = new int[n];
        sectionHi = new int[n];
        int[] count = new int[sectionCount + 1];
        for (int i = 0; i < n; i++) {
            sectionLo[i] = SortedLongs.countAtMost(ends, lower[i]);
            sectionHi[i] = Arrays.binarySearch(ends, upper[i]) + 1;
            for (int s = sectionLo[i]; s < sectionHi[i]; s++) {
                count[s + 1]++;
            }
        }
        memberStart = new int[sectionCount + 1];
        for (int s = 0; s < sectionCount; s++) {
            memberStart[s + 1] = memberStart[s] + count[s + 1];
        }
        members = new int[memberStart[sectionCount]];
        int[] fill = Arrays.copyOf(memberStart, sectionCount);
        for (int i = 0; i < n; i++) {
            for (int s = sectionLo[i]; s < sectionHi[i]; s++) {
                members[fill[s]++] = i;
            }
        }
        int[][] pairs = overlapPairs(lower, upper);
        overlapStart = pairs[0];
        overlaps = pairs[1];
        reachLo = sectionLo.clone();
        reachHi = sectionHi.clone();
        for (int i = 0; i < n; i++) {
            for (int e = overlapStart[i]; e < overlapStart[i + 1]; e++) {
                reachLo[i] = Math.min(reachLo[i], sectionLo[overlaps[e]]);
                reachHi[i] = Math.max(reachHi[i], sectionHi[overlaps[e]]);
            }
        }
        cuts = new int[Math.max(0, sectionCount - 1)];
        for (int i = 0; i < n; i++) {
            for (int k = sectionLo[i]; k + 1 < sectionHi[i]; k++) {
                cuts[k]++;
            }
        }
        partitions = splitAtZeroCuts();
    }

    /** Splits all sections at every zero cut and assigns each buffer to the part holding its sections. */
    private List<Part> splitAtZeroCuts() {
        int[] partOf = new int[sectionCount];
        List<int[]> ranges = new ArrayList<>();
        int start = 0;
        for (int k = 0; k < sectionCount; k++) {
            partOf[k] = ranges.size();
            if (k + 1 == sectionCount || cuts[k] == 0) {
                ranges.add(new int[] {start, k + 1});
                start = k + 1;
            }
        }
        int[] sizes = new int[ranges.size()];
        for (int i = 0; i < n; i++) {
            sizes[partOf[sectionLo[i]]]++;
        }
        List<Part> parts = new ArrayList<>(ranges.size());
        int[][] buffers = new int[ranges.size()][];
        for (int p = 0; p < ranges.size(); p++) {
            buffers[p] = new int[sizes[p]];
            parts.add(new Part(ranges.get(p)[0], ranges.get(p)[1], buffers[p]));
            sizes[p] = 0;
        }
        for (int i = 0; i < n; i++) {
            int p = partOf[sectionLo[i]];
            buffers[p][sizes[p]++] = i;
        }
        return List.copyOf(parts);
    }

    /** Largest total size live at one moment: no capacity below it can pack the buffers. */
    long maxLiveBytes(long[] size) {
        long best = 0;
        for (int s = 0; s < sectionCount; s++) {
            long total = 0;
            for (int m = memberStart[s]; m < memberStart[s + 1]; m++) {
                total = dev.memplan.model.ByteRange.add(total, size[members[m]]);
            }
            best = Math.max(best, total);
        }
        return best;
    }

    private static long[] distinctSorted(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int k = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[k++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, k);
    }

    /** CSR lists of the buffers overlapping each buffer in time, by a sweep over start times. */
    private static int[][] overlapPairs(long[] lower, long[] upper) {
        int n = lower.length;
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> Long.compare(lower[a], lower[b]));
        int[] degree = new int[n];
        List<int[]> chunks = new ArrayList<>();
        int[] chunk = new int[1024];
        int used = 0;
        for (int x = 0; x < n; x++) {
            int a = boxed[x];
            for (int y = x + 1; y < n && lower[boxed[y]] < upper[a]; y++) {
                // lower[a] <= lower[b] < upper[b], so the two ranges meet.
                int b = boxed[y];
                if (used == chunk.length) {
                    chunks.add(chunk);
                    chunk = new int[chunk.length];
                    used = 0;
                }
                chunk[used++] = a;
                chunk[used++] = b;
                degree[a]++;
                degree[b]++;
            }
        }
        chunks.add(Arrays.copyOf(chunk, used));
        int[] start = new int[n + 1];
        for (int i = 0; i < n; i++) {
            start[i + 1] = start[i] + degree[i];
        }
        int[] list = new int[start[n]];
        int[] fill = Arrays.copyOf(start, n);
        for (int[] c : chunks) {
            for (int k = 0; k < c.length; k += 2) {
                list[fill[c[k]]++] = c[k + 1];
                list[fill[c[k + 1]]++] = c[k];
            }
        }
        return new int[][] {start, list};
    }
}
