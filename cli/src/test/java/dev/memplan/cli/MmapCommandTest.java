package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.io.MmapJson;
import dev.memplan.model.mmap.MappingChecker;
import dev.memplan.model.mmap.MmapInstance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MmapCommandTest {
    @TempDir
    Path dir;

    @Test
    void exportSolveAndCheckRoundTrip() throws IOException {
        Path instance = dir.resolve("p.json");
        MainTest.Result r = MainTest.run("mmap", "export", "gen:mmap:60:4", "--out", instance.toString());
        assertEquals(0, r.code(), r.err());
        MmapInstance in = MmapJson.read(instance);
        assertEquals(60, in.size());
        Path mapping = dir.resolve("m.json");
        r = MainTest.run("mmap", "solve", instance.toString(), "--planner", "exact", "--time-limit", "20", "--out",
                mapping.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("checked   valid"), r.out());
        assertTrue(MappingChecker.check(in, MmapJson.readMapping(mapping)).valid());
        r = MainTest.run("mmap", "check", instance.toString(), mapping.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("valid: reward "), r.out());
        // The same mapping with less fast memory breaks the capacity rule: exit 1, the rule named.
        r = MainTest.run("mmap", "check", instance.toString(), mapping.toString(), "--capacity", "1");
        assertEquals(ExitCode.NO.code(), r.code(), r.out());
        assertTrue(r.out().contains("capacity: "), r.out());
    }

    @Test
    void compareRunsEveryPlannerOnAZooNetwork() {
        MainTest.Result r = MainTest.run("mmap", "compare", "lraspp_mobilenet_v3_large", "--time-limit", "10");
        assertEquals(0, r.code(), r.err());
        for (String p : new String[] {"greedy", "random", "mcts", "exact"}) {
            assertTrue(r.out().matches("(?s).*lraspp_mobilenet_v3_large\\s+345\\s+" + p + "\\s.*"), r.out());
        }
    }

    @Test
    void badInstanceIsAUserErrorNamingFileAndPlace() throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"format\": \"memplan-mmap/1\", \"name\": \"b\", \"capacity\": 4, \"supply\": [1],"
                + " \"buffers\": [{\"tensor\": 0, \"kind\": \"input\", \"time\": 0, \"live\": [0, 0], \"size\": 0,"
                + " \"demand\": 0, \"benefit\": 1}]}");
        MainTest.Result r = MainTest.run("mmap", "solve", bad.toString(), "--planner", "greedy");
        assertEquals(ExitCode.USER_ERROR.code(), r.code());
        assertTrue(r.err().contains(bad + ": $.buffers[0].size: size must be positive"), r.err());
        r = MainTest.run("mmap", "solve", "gen:mmap:x");
        assertEquals(ExitCode.USER_ERROR.code(), r.code());
        r = MainTest.run("mmap", "solve", "resnet50", "--planner", "annealing");
        assertEquals(ExitCode.USER_ERROR.code(), r.code());
        assertTrue(r.err().contains("unknown planner 'annealing'"), r.err());
    }
}
