package dev.memplan.baselines.allocation.minimalloc;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.model.Allocation;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Times {@link MiniMallocAllocator} on the challenging suite (not a unit test: minutes of work). Prints one
 * row per instance with the seconds at threads=1 and threads=2 for each repetition, beside the reference C++
 * program's single-thread time on this machine.
 *
 * <p>Arguments (all optional): {@code reps=2 limit=60 threads=1,2 only=A,B,... off=dominance,restarts,...}
 * ({@code off} names {@link MiniMallocOptions.Technique} ids to turn off, for ablations). A row shows the seconds
 * and the first letter of the status (F = FEASIBLE, U = UNKNOWN at the limit).
 */
public final class MiniMallocMeasure {
    private static final String[] REFERENCE = {"A 9.7", "B 7.4", "C 1.3", "D 7.1", "E 7.7", "F 11.5", "G 2.3",
        "H 3.3", "I 7.1", "J 2.7", "K 1.1"};

    private MiniMallocMeasure() {
    }

    public static void main(String[] args) {
        int reps = 2;
        long limit = 60;
        List<Integer> threadCounts = List.of(1, 2);
        List<String> only = MiniMallocSuite.challengingNames();
        MiniMallocOptions options = MiniMallocOptions.DEFAULT;
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            switch (kv[0]) {
                case "reps" -> reps = Integer.parseInt(kv[1]);
                case "limit" -> limit = Long.parseLong(kv[1]);
                case "threads" -> threadCounts = parseInts(kv[1]);
                case "only" -> only = List.of(kv[1].split(","));
                case "off" -> options = without(options, kv[1].split(","));
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        MiniMallocAllocator allocator = new MiniMallocAllocator(options);
        System.out.println(options);
        // Warm the JIT on an easy instance so that the first row is not charged for compilation.
        allocator.allocate(MiniMallocSuite.challenging("K"), MiniMallocSuite.CHALLENGING_CAPACITY,
                new Limits(Duration.ofSeconds(limit), 1, 0, 0));
        System.out.printf("%-4s %8s", "inst", "ref(s)");
        for (int t : threadCounts) {
            for (int r = 0; r < reps; r++) {
                System.out.printf(" %12s", "t=" + t + " #" + (r + 1));
            }
        }
        System.out.println();
        for (String name : only) {
            BufferSet set = MiniMallocSuite.challenging(name);
            String reference = "?";
            for (String ref : REFERENCE) {
                if (ref.startsWith(name + " ")) {
                    reference = ref.substring(2);
                }
            }
            System.out.printf("%-4s %8s", name, reference);
            for (int t : threadCounts) {
                for (int r = 0; r < reps; r++) {
                    Allocation a = allocator.allocate(set, MiniMallocSuite.CHALLENGING_CAPACITY,
                            new Limits(Duration.ofSeconds(limit), t, 0, 0));
                    String mark = a.status().name().substring(0, 1);
                    System.out.printf(Locale.ROOT, " %10.3f %s", a.seconds(), mark);
                }
            }
            System.out.println();
        }
    }

    private static MiniMallocOptions without(MiniMallocOptions options, String[] switches) {
        MiniMallocOptions o = options;
        for (String name : switches) {
            o = o.without(MiniMallocOptions.Technique.parse(name));
        }
        return o;
    }

    private static List<Integer> parseInts(String csv) {
        List<Integer> values = new ArrayList<>();
        for (String s : csv.split(",")) {
            values.add(Integer.parseInt(s));
        }
        return values;
    }
}
