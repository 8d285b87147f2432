package dev.memplan.formulations.milp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Native solvers can write to file descriptor 1 behind System.out's back (HiGHS prints a banner unless told
 * {@code output_flag=false}; CBC complains about a thread option it lacks). Only a separate process sees that.
 */
class NativeOutputTest {

    @Test
    void noBackEndWritesToTheProcessStdout() throws IOException, InterruptedException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path err = Files.createTempFile("memplan-quiet", ".err");
        try {
            Process child = new ProcessBuilder(List.of(java, "-cp", classpath,
                    "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), QuietSolveMain.class.getName()))
                    .redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File(nullDevice())))
                    .start();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (InputStream stdout = child.getInputStream()) {
                stdout.transferTo(out);
            }
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child finished");
            String errors = Files.readString(err);
            assertEquals(0, child.exitValue(), errors);
            assertTrue(errors.contains("done"), errors);
            assertEquals("", out.toString(StandardCharsets.UTF_8), "stdout of the child; its stderr:\n" + errors);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    private static String nullDevice() {
        return System.getProperty("os.name").toLowerCase().startsWith("windows") ? "NUL" : "/dev/null";
    }
}
