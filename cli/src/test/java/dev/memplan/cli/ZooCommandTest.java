package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.datasets.zoo.ZooFiles;
import dev.memplan.model.io.GraphJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZooCommandTest {
    @TempDir
    Path dir;

    @Test
    void listShowsEveryNetworkAndItsTrainingStepWithTheirSizes() {
        MainTest.Result r = MainTest.run("zoo", "list");
        assertEquals(0, r.code(), r.err());
        for (String name : Zoo.names().stream().flatMap(n -> java.util.stream.Stream.of(n, n + ":train")).toList()) {
            ZooFiles.Stats s = ZooFiles.stats(name);
            // Sizes are plain integers, as everywhere in memplan's output (no thousands separators).
            assertTrue(r.out().matches("(?s).*\\n" + name + "\\s+(human|NAS)\\s+" + s.operators() + "\\s+" + s.tensors()
                    + "\\s+" + s.activationBytes() + "\\s+" + s.parameterBytes() + "\\s+" + s.minimumActivations()
                    + "\\s+" + s.minimumAll() + "\\s.*"), r.out());
        }
    }

    @Test
    void exportOneNetworkWritesALoadableGraph() throws IOException {
        Path target = dir.resolve("new/folder");
        MainTest.Result r = MainTest.run("zoo", "export", "resnet50", target.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(Zoo.graph("resnet50").operatorCount(), GraphJson.read(target.resolve("resnet50.json")).operatorCount());
        assertTrue(Files.notExists(target.resolve("README.md")));
    }

    @Test
    void unknownNetworkIsAUserErrorAndWritesNothing() throws IOException {
        MainTest.Result r = MainTest.run("zoo", "export", "resnet51", dir.toString());
        assertEquals(ExitCode.USER_ERROR.code(), r.code());
        assertTrue(r.err().contains("no zoo network named 'resnet51'"), r.err());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void commandsTakingAGraphAcceptAZooName() {
        MainTest.Result r = MainTest.run("budgets", "resnet50", "--setting", "activations", "--time-limit", "5");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("graph resnet50: 72 operators"), r.out());
        assertTrue(r.out().matches("(?s).*activations\\s+" + ZooFiles.stats("resnet50").minimumActivations() + "\\s.*"),
                r.out());
    }
}
