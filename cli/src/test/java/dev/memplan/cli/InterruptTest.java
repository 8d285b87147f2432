package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C as a user sends it: {@code memplan solve} runs in a child JVM on a graph whose solve takes minutes, gets
 * SIGINT while solving, and must stop promptly with exit code 130, leaving the --out file either as it was or
 * holding the best checked plan (and saying which on stderr), never half-written.
 */
class InterruptTest {
    @TempDir
    Path dir;

    @Test
    void firstCtrlCStopsTheSolveAndExits130WithNothingHalfWritten() throws Exception {
        Path out = dir.resolve("plan.json");
        Files.writeString(out, "an earlier result\n");
        Process p = new ProcessBuilder(ChildJvm.memplan(List.of("-Xmx1g"), "solve", "gen:cells:300", "--budget", "M_R",
                "--time-limit", "600", "--out", out.toString())).start();
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        StringBuilder stderr = new StringBuilder();
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = err.readLine()) != null && !line.startsWith("solving at budget")) {
            stderr.append(line).append('\n');
        }
        assertTrue(line != null, "the solve never started: " + stderr);
        // Into the solver's work (model building or a native solve), which takes minutes on this graph.
        Thread.sleep(1500);
        assertTrue(p.isAlive(), "solved before the interrupt: pick a harder graph");
        long sent = System.nanoTime();
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
        assertEquals(0, kill.waitFor());
        CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> readAll(err));
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "still running 60 s after Ctrl-C");
        double seconds = (System.nanoTime() - sent) / 1e9;
        String messages = stderr + rest.get();
        assertEquals(130, p.exitValue(), messages + stdout.get());
        // The grace period after the first Ctrl-C is 5 s; the rest is the JVM's exit.
        assertTrue(seconds < 20, "took " + seconds + " s to stop");
        assertTrue(messages.contains("memplan: interrupted"), messages);
        String content = Files.readString(out);
        if (messages.contains("wrote the best checked plan so far")) {
            MainTest.Result check = MainTest.run("check", "gen:cells:300", out.toString());
            assertEquals(0, check.code(), check.out() + check.err());
        } else {
            assertEquals("an earlier result\n", content, messages);
        }
        try (var files = Files.list(dir)) {
            List<Path> left = files.filter(f -> !f.equals(out)).toList();
            assertTrue(left.isEmpty(), "temporary files left: " + left);
        }
    }

    private static String readAll(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static String readAll(BufferedReader in) {
        StringBuilder sb = new StringBuilder();
        try {
            String line;
            while ((line = in.readLine()) != null) {
                sb.append(line).append('\n');
            }
        } catch (IOException e) {
            return sb.toString();
        }
        return sb.toString();
    }
}
