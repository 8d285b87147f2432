package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The command line of a memplan command in a JVM of its own, as the tests start one: this JVM's java with C1 only
 * (as the build runs the tests, see the root pom's {@code test.jvm}: a child's run is seconds long, and C2's
 * compiler threads would take CPU from the other test fork; no answer depends on the compiler), the given JVM
 * options, the classpath and memplan's main class, then the arguments.
 */
final class ChildJvm {
    private ChildJvm() {
    }

    static List<String> memplan(List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:TieredStopAtLevel=1");
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Runs a memplan command as a user runs it, in a JVM of its own with these JVM options; returns its standard
     * output (its standard error is dropped) after asserting exit code 0.
     */
    static String run(List<String> jvmOptions, String... args) throws Exception {
        Process p = new ProcessBuilder(memplan(jvmOptions, args)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", args) + " still running after 300 s");
        assertEquals(0, p.exitValue(), String.join(" ", args) + "\n" + stdout);
        return stdout;
    }
}
