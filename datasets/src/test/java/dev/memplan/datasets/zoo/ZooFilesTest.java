package dev.memplan.datasets.zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.GraphJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The zoo files in the repository ({@code datasets/zoo}) are what the code generates, and each one loads. */
class ZooFilesTest {
    private static final Path REPOSITORY_COPY = Path.of("zoo");
    private static final String REGENERATE = " is out of date with the builders: run ./memplan zoo export all datasets/zoo";

    @Test
    void everyNetworkFileIsUpToDateLoadsAndHasBudgetsForBothSettings() throws IOException {
        for (String name : Zoo.names()) {
            Path file = REPOSITORY_COPY.resolve(name + ".json");
            assertTrue(Files.isRegularFile(file), file + " is missing: run ./memplan zoo export all datasets/zoo");
            assertEquals(ZooFiles.json(name), Files.readString(file), file + REGENERATE);
            Graph g = GraphJson.read(file);
            ZooFiles.Stats s = ZooFiles.stats(name);
            assertEquals(s.operators(), g.operatorCount(), name);
            assertEquals(s.minimumActivations(), Budgets.minimumRequired(g.withSetting(TensorSetting.ACTIVATIONS)), name);
            assertEquals(s.minimumAll(), Budgets.minimumRequired(g.withSetting(TensorSetting.ALL)), name);
            assertTrue(s.minimumActivations() > 0 && s.minimumAll() >= s.minimumActivations(), name);
        }
    }

    @Test
    void readmeTableIsUpToDate() throws IOException {
        assertEquals(ZooFiles.readme(), Files.readString(REPOSITORY_COPY.resolve("README.md")), "zoo/README.md" + REGENERATE);
    }

    @Test
    void exportWritesEachFileAndTheReadmeOnlyForTheWholeZoo(@TempDir Path dir) throws IOException {
        List<Path> one = ZooFiles.export(List.of("resnet50"), dir);
        assertEquals(List.of(dir.resolve("resnet50.json")), one);
        assertTrue(Files.notExists(dir.resolve("README.md")));
        assertEquals(Zoo.names().size() + 1, ZooFiles.export(Zoo.names(), dir).size());
        assertEquals(ZooFiles.readme(), Files.readString(dir.resolve("README.md")));
    }
}
