package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrafficFigureTest {
    @TempDir
    Path dir;

    static List<Results.Row> rows() {
        return List.of(
                new Results.Row("resnet50", "M_R", "cosma", "OPTIMAL", 400L, null, 0.5),
                new Results.Row("resnet50", "M_R", "default/belady/tflite", "HEURISTIC", 1200L, null, 0.01),
                new Results.Row("resnet50", "M_H", "cosma", "FEASIBLE", 100L, 0.25, 120),
                new Results.Row("resnet50", "M_H", "default/belady/tflite", "HEURISTIC", 800L, null, 0.01),
                new Results.Row("resnet50", "M_P", "cosma", "OPTIMAL", 0L, null, 0.02),
                new Results.Row("resnet50", "M_P", "default/belady/tflite", "HEURISTIC", 300L, null, 0.01),
                new Results.Row("vgg16", "M_R", "cosma", "UNKNOWN", null, null, 120),
                new Results.Row("vgg16", "M_R", "default/belady/tflite", "HEURISTIC", 5000L, null, 0.01));
    }

    @Test
    void dump() throws Exception {
        Path csv = dir.resolve("r.csv");
        Files.writeString(csv, Results.csv(rows()));
        ResultCells cells = new ResultCells(ResultsFile.read(csv), null, null, null);
        Files.writeString(Path.of("/tmp/proto/t.svg"), FigureFile.svg(new TrafficFigure(cells, false, "t")));
        Files.write(Path.of("/tmp/proto/t.png"), FigureFile.png(new TrafficFigure(cells, true, "t")));
        assertEquals(2, cells.panels().size());
    }
}
