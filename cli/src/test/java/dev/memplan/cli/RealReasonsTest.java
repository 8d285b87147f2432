package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: messages that gave a wrong or missing reason, and nonsense that was accepted, now give the real
 * reason with the file, the place and the rule (exit 2), each with the smallest input that showed it.
 */
class RealReasonsTest {
    @TempDir
    Path dir;

    private static void assertRefused(MainTest.Result r, String... words) {
        assertEquals(ExitCode.USER_ERROR.code(), r.code(), r.out() + r.err());
        assertTrue(r.err().startsWith("memplan: error: "), r.err());
        for (String w : words) {
            assertTrue(r.err().contains(w), "'" + w + "' in: " + r.err());
        }
    }

    private Path csv(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void aBudgetBeyond64BitsIsTooLargeNotMalformed() {
        assertRefused(MainTest.run("solve", "fig1", "--budget", "9223372036854775808"), "above 2^53");
        assertRefused(MainTest.run("solve", "fig1", "--budget", "9223372036854775807"), "above 2^53");
    }

    @Test
    void missingFilesSayTheyAreMissing() {
        MainTest.Result spec = MainTest.run("sweep", dir.resolve("missing.yaml").toString());
        assertRefused(spec, "missing.yaml", "no such file or folder");
        assertFalse(spec.err().matches("(?s).*missing.yaml: \\S*missing.yaml\\s*"), spec.err());
        assertRefused(MainTest.run("solve", "fig1", "--budget", "M_R", "--decompose", dir.resolve("foo").toString()),
                "--decompose", "foo", "no such file or folder");
    }

    @Test
    void anUnknownCommandIsNamedWithTheCommandsThereAre() {
        MainTest.Result r = MainTest.run("foo");
        assertRefused(r, "unknown command 'foo'", "solve", "compare", "allocate");
        assertFalse(r.err().contains("Unmatched argument"), r.err());
        assertRefused(MainTest.run("mmap", "bar"), "unknown command 'bar' for 'memplan mmap'", "export");
    }

    @Test
    void anOutputThatCannotTakeAFileFailsBeforeTheSolveWithItsReason() {
        Path proc = Path.of("/proc/version");
        if (!Files.exists(proc)) {
            return; // not Linux: no /proc to try
        }
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_R", "--out", proc.toString());
        assertRefused(r, "--out /proc/version", "folder /proc takes no new files");
        assertFalse(r.out().contains("status"), "refused before solving: " + r.out());
        // Every bench command checks its --csv before it runs (bench mmap and bench import wrote it after the work).
        for (String[] bench : new String[][] {{"mmap"}, {"import", "missing.onnx"}, {"compare"}}) {
            List<String> args = new ArrayList<>(List.of("bench", "--csv", "/proc/bench.csv"));
            args.addAll(1, List.of(bench));
            MainTest.Result b = MainTest.run(args.toArray(String[]::new));
            assertRefused(b, "--csv /proc/bench.csv", "folder /proc takes no new files");
        }
    }

    @Test
    void allocateCsvsThatBreakTheFormatAreRefusedNotPacked() throws IOException {
        assertRefused(MainTest.run("allocate", csv("neg.12.csv", "id,lower,upper,size\n0,-5,3,4\n1,0,2,4\n").toString()),
                "neg.12.csv", "line 2, column 'lower'", ">= 0");
        assertRefused(MainTest.run("allocate", csv("q.12.csv", "id,lower,upper,size\n\"0,0,3,4\n1,0,2,4\n").toString()),
                "q.12.csv", "line 2, column 1", "quote");
    }

    @Test
    void fixedOffsetsNoPackingCanKeepAreTheFilesMistakeNotAProof() throws IOException {
        MainTest.Result negative = MainTest.run("allocate",
                csv("off.12.csv", "id,lower,upper,size,offset\n0,0,3,4,-4\n1,0,2,4,0\n").toString());
        assertRefused(negative, "off.12.csv", "line 2, column 'offset'", "offset must be >= 0");
        assertFalse(negative.out().contains("infeasible"), negative.out());
        assertRefused(MainTest.run("allocate",
                        csv("conf.12.csv", "id,lower,upper,size,offset\n0,0,3,4,0\n1,0,2,4,2\n").toString()),
                "conf.12.csv", "line 3", "'0' (line 2) and '1'", "overlapping addresses");
        assertRefused(MainTest.run("allocate",
                        csv("cap.12.csv", "id,lower,upper,size,offset\n0,0,3,4,10\n1,0,2,4,\n").toString()),
                "cap.12.csv", "buffer '0'", "beyond the capacity 12");
        assertRefused(MainTest.run("allocate",
                        csv("al.12.csv", "id,lower,upper,size,alignment,offset\n0,0,3,4,4,2\n").toString()),
                "al.12.csv", "not a multiple of its alignment 4");
        // Fixed offsets that fit and do not collide still pack, around the fixed buffers.
        MainTest.Result ok = MainTest.run("allocate",
                csv("ok.12.csv", "id,lower,upper,size,offset\n0,0,3,4,0\n1,0,2,4,4\n2,0,2,4,\n").toString());
        assertEquals(0, ok.code(), ok.err());
    }

    @Test
    void aPlanWithANegativeBudgetIsRefusedWhereItIsRead() throws IOException {
        String plan;
        try (var in = Examples.class.getResourceAsStream("/dev/memplan/datasets/examples/fig1-48.plan.json")) {
            plan = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Path negative = Files.writeString(dir.resolve("neg.plan.json"), plan.replaceFirst("\"budget\"\\s*:\\s*\\d+",
                "\"budget\": -48"));
        assertRefused(MainTest.run("check", "fig1", negative.toString()), "neg.plan.json", "$.budget", ">= 0");
    }

    @Test
    void anOnnxInputGivenTwiceIsRefusedInsteadOfTheLastWinning() {
        OnnxOptions o = new OnnxOptions();
        o.fuse = "bn+activations";
        o.bytesPerElement = 1;
        o.inputs = List.of("x=1,3,224,224", "x=1,3,100,100");
        UserException e = assertThrows(UserException.class, o::options);
        assertTrue(e.getMessage().contains("input 'x' is given twice"), e.getMessage());
    }
}
