package dev.memplan.baselines.allocation.telamalloc;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.model.Allocation;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import java.time.Duration;
import java.util.List;

/**
 * Not a test: runs the skyline heuristic and TelaMalloc on MiniMalloc's eleven challenging instances (capacity
 * 1,048,576; Moffitt, ASPLOS 2023, Table 2, where TelaMalloc solves none within an hour) and prints, per
 * instance, the peak live size, the skyline's height and status, and TelaMalloc's status, time and search
 * counters. Arguments: the time limit per instance in seconds (default 60), then optionally instance names.
 */
public final class TelaMallocBenchmark {

    private TelaMallocBenchmark() {
    }

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 60;
        List<String> names =
                args.length > 1 ? List.of(args).subList(1, args.length) : MiniMallocSuite.challengingNames();
        Limits limits = Limits.ofWall(Duration.ofMillis((long) (seconds * 1000)));
        SkylineAllocator skyline = new SkylineAllocator();
        TelaMallocAllocator tela = new TelaMallocAllocator();
        System.out.printf("%-4s %5s %9s | %9s %9s %8s | %-10s %8s %9s %9s %8s %6s %6s%n", "inst", "n", "peak",
                "skyline", "status", "s", "telamalloc", "s", "steps", "minor", "major", "stuck", "depth");
        int solved = 0;
        for (String name : names) {
            BufferSet set = MiniMallocSuite.challenging(name);
            long capacity = MiniMallocSuite.CHALLENGING_CAPACITY;
            long t0 = System.nanoTime();
            Placement packed = skyline.pack(set);
            double packSeconds = (System.nanoTime() - t0) / 1e9;
            Allocation sky = skyline.allocate(set, capacity, limits);
            TelaMallocAllocator.Run run = tela.run(set, capacity, limits);
            if (run.allocation().solved()) {
                solved++;
            }
            System.out.printf("%-4s %5d %9d | %9d %9s %8.3f | %-10s %8.2f %9d %9d %8d %6d %6d%n", name, set.size(),
                    TimeAxis.of(set).peak(), packed.height(), sky.status(), packSeconds, run.allocation().status(),
                    run.allocation().seconds(), run.steps(), run.minorBacktracks(), run.majorBacktracks(),
                    run.stuckJumps(), run.deepest());
        }
        System.out.printf("telamalloc solved %d of %d within %.0f s each%n", solved, names.size(), seconds);
    }
}
