package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Answers that must not depend on the JVM they run in: each command in a JVM of its own. */
class IdentityHashTest {
    /**
     * The minimum-peak order (and the mpmf scheme's plan) must not depend on the JVM's identity hashes: AmoebaNet's
     * beam at width 4096 gave another order of the same peak with -XX:hashCode=2 (1,653,216 B for
     * mpmf/belady/tflite at M_R instead of 1,528,640 B) while its states sat in a HashMap keyed by BitSets.
     */
    @Test
    void theMinimumPeakOrderDoesNotDependOnIdentityHashes() throws Exception {
        String[] args = {"compare", "amoebanet", "--budget", "M_R", "--no-cosma", "--schemes", "mpmf/belady/tflite",
            "--mp-beam", "4096"};
        String normal = ChildJvm.run(List.of(), args).replaceAll("[0-9]+\\.[0-9]{2}  ", "");
        for (String mode : List.of("2", "3")) {
            String other = ChildJvm.run(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=" + mode), args);
            assertEquals(normal, other.replaceAll("[0-9]+\\.[0-9]{2}  ", ""), "-XX:hashCode=" + mode);
        }
        assertTrue(normal.contains("mpmf/belady/tflite  HEURISTIC"), normal);
    }
}
