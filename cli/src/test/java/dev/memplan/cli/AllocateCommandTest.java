package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.BufferChecker;
import dev.memplan.model.Placement;
import dev.memplan.model.io.MiniMallocCsv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AllocateCommandTest {
    static final String EXAMPLE = "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n";

    @TempDir
    Path dir;

    private Path example() throws IOException {
        Path file = dir.resolve("input.12.csv");
        Files.writeString(file, EXAMPLE);
        return file;
    }

    @Test
    void packsTheExampleAtTheCapacityInItsNameAndWritesMiniMallocsOutput() throws IOException {
        Path out = dir.resolve("out.csv");
        MainTest.Result r = MainTest.run("allocate", example().toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("solved: height 12"), r.out());
        Placement p = MiniMallocCsv.readPlacement(out);
        assertTrue(BufferChecker.check(p, 12).isEmpty());
        assertTrue(Files.readString(out).startsWith("id,lower,upper,size,offset\nb1,0,3,4,"), Files.readString(out));
    }

    @Test
    void provenInfeasibleAndGaveUpHaveDifferentExitCodes() throws IOException {
        MainTest.Result infeasible = MainTest.run("allocate", example().toString(), "--capacity", "11");
        assertEquals(ExitCode.NO.code(), infeasible.code(), infeasible.out());
        assertTrue(infeasible.out().contains("infeasible (proven)"), infeasible.out());
        // A heuristic proves nothing: below the minimum it gives up, it does not say "infeasible".
        MainTest.Result heuristic = MainTest.run("allocate", example().toString(), "--capacity", "11", "--allocator", "tflite");
        assertEquals(ExitCode.NOT_FOUND.code(), heuristic.code(), heuristic.out());
        assertTrue(heuristic.out().matches("(?s).*gave up after \\d+\\.\\d+ s: the heuristic's packing exceeds the capacity: "
                + "height \\d+ > 11 \\(not proven infeasible\\).*"), heuristic.out());
    }

    @Test
    void minimizeFindsTheLeastHeight() throws IOException {
        for (String allocator : new String[] {"minimalloc", "cpsat"}) {
            MainTest.Result r = MainTest.run("allocate", example().toString(), "--minimize", "--allocator", allocator);
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("minimum height (proven): height 12"), r.out());
        }
    }

    @Test
    void badInputIsAUserErrorNamingTheProblem() throws IOException {
        Path bad = dir.resolve("bad.10.csv");
        Files.writeString(bad, "id,lower,upper,size\na,0,3,-4\n");
        MainTest.Result r = MainTest.run("allocate", bad.toString());
        assertEquals(ExitCode.USER_ERROR.code(), r.code());
        assertTrue(r.err().contains("bad.10.csv"), r.err());
        Path noCapacity = dir.resolve("buffers.csv");
        Files.writeString(noCapacity, EXAMPLE);
        MainTest.Result c = MainTest.run("allocate", noCapacity.toString());
        assertEquals(ExitCode.USER_ERROR.code(), c.code());
        assertTrue(c.err().contains("no capacity"), c.err());
        MainTest.Result a = MainTest.run("allocate", example().toString(), "--allocator", "firstfitx");
        assertEquals(ExitCode.USER_ERROR.code(), a.code());
        assertTrue(a.err().contains("unknown allocator 'firstfitx'"), a.err());
    }

    @Test
    void benchAllocatorsRunsOnAChallengingInstance() {
        Path csv = dir.resolve("bench.csv");
        MainTest.Result r = MainTest.run("bench", "allocators", "--instances", "K", "--random", "1", "--allocators",
                "minimalloc,tflite", "--time-limit", "30", "--csv", csv.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*K\\s+454\\s+1048576\\s+minimalloc\\s+solved.*"), r.out());
        assertTrue(r.out().matches("(?s).*K\\s+454\\s+1048576\\s+tflite\\s+exceeds.*"), r.out());
        assertTrue(Files.exists(csv));
    }
}
