package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.milp.Solvers;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 37.4: on a runtime where OR-Tools' natives cannot load (made so here by {@link Solvers#FAIL_PROPERTY}, in a
 * JVM of its own, since a JVM loads them once), a command that needs them says in one line why and what still
 * works, and exits 2; it does not fall back to ojAlgo (which counts no work: on {@code gen:cells:200:3 --work-limit
 * 2} it ran out of heap and said "This is a bug"). What needs no native solver still runs.
 */
class NativesUnavailableTest {
    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) throws Exception {
        File err = File.createTempFile("natives", ".err");
        err.deleteOnExit();
        Process p = new ProcessBuilder(ChildJvm.memplan(List.of("-D" + Solvers.FAIL_PROPERTY + "=no such platform",
                "-Xmx512m"), args)).redirectError(err).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", args) + " still running after 120 s");
        return new Run(p.exitValue(), out, java.nio.file.Files.readString(err.toPath()));
    }

    @Test
    void aCommandThatNeedsThemSaysWhyInOneLineAndExits2() throws Exception {
        for (String[] args : List.of(
                new String[] {"solve", "gen:cells:200:3", "--budget", "M_R", "--work-limit", "2"},
                new String[] {"allocate", "gen:trace:100", "--minimize", "--allocator", "cpsat"},
                new String[] {"mmap", "solve", "gen:mmap:30:4", "--planner", "exact"})) {
            Run r = run(args);
            String cmd = String.join(" ", args);
            assertEquals(ExitCode.USER_ERROR.code(), r.code(), cmd + "\n" + r.out() + r.err());
            List<String> errors = r.err().lines().filter(l -> l.startsWith("memplan: error: ")).toList();
            assertEquals(1, errors.size(), cmd + "\n" + r.err());
            String line = errors.get(0);
            assertTrue(line.contains("needs OR-Tools' native libraries, which cannot be loaded on this Java runtime"
                    + " (UnsatisfiedLinkError no such platform"), line);
            assertTrue(line.endsWith(Main.WITHOUT_NATIVES), line);
            assertFalse(r.err().contains("bug") || r.err().contains("\tat ") || r.err().contains("ojAlgo"), r.err());
        }
    }

    @Test
    void whatNeedsNoNativeSolverStillRuns() throws Exception {
        Run check = run("compare", "fig1", "--budget", "M_H", "--no-cosma");
        assertEquals(0, check.code(), check.err());
        Run allocate = run("allocate", "gen:trace:100", "--minimize", "--time-limit", "3");
        assertEquals(0, allocate.code(), allocate.err());
        assertTrue(allocate.out().contains("cpsat: skipped: OR-Tools' native libraries cannot be loaded"), allocate.out());
        Run ojalgo = run("solve", "fig1", "--budget", "M_H", "--solver", "ojalgo", "--time-limit", "20");
        assertEquals(0, ojalgo.code(), ojalgo.err());
        assertTrue(ojalgo.out().contains("plan checked: VALID"), ojalgo.out());
    }
}
