package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

class TrafficFigureTest {
    @TempDir
    Path dir;

    /** Two networks; resnet50 at three budgets with a feasible, a zero and heuristic cells, vgg16 with an unknown. */
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

    private ResultCells cells() throws Exception {
        Path csv = dir.resolve("r.csv");
        Files.writeString(csv, Results.csv(rows()));
        return new ResultCells(ResultsFile.read(csv), null, null, null);
    }

    /** Traffic of resnet50's cells by bar id (panel 0; budget index; series 0 belady, 1 cosma (cosma last, as in the paper)). */
    private static final Map<String, Long> RESNET = Map.of("bar-0-0-1", 400L, "bar-0-0-0", 1200L, "bar-0-1-1", 100L,
            "bar-0-1-0", 800L, "bar-0-2-1", 0L, "bar-0-2-0", 300L);

    @Test
    void oneBarPerCellWithAPlanHeightsProportionalToTrafficOnALinearAxis() throws Exception {
        TrafficFigure figure = new TrafficFigure(cells(), false, "t");
        assertEquals(cells().panels().size() + " panels x " + cells().budgets().size() + " budgets x "
                + cells().series().size() + " planners", figure.summary());
        assertEquals(dir.resolve("results-traffic.svg").toAbsolutePath(),
                FigureFile.beside(dir.resolve("results.duckdb"), "-traffic.svg"));
        assertEquals(dir.resolve("plan-layout.svg").toAbsolutePath(), FigureFile.beside(dir.resolve("plan"), "-layout.svg"));
        Svg svg = new Svg(FigureFile.svg(figure));
        Map<String, Element> bars = svg.byIdPrefix("bar-");
        // 5 cells of resnet50 (cosma at M_P has zero traffic: no bar) and vgg16's belady; vgg16's cosma is UNKNOWN:
        // no plan, no bar.
        assertEquals(new java.util.TreeSet<>(List.of("bar-0-0-1", "bar-0-0-0", "bar-0-1-1", "bar-0-1-0",
                "bar-0-2-0", "bar-1-0-0")), new java.util.TreeSet<>(bars.keySet()));
        bars.values().forEach(b -> assertEquals("rect", b.getTagName()));
        double foot = Svg.num(bars.get("bar-0-0-1"), "y") + Svg.num(bars.get("bar-0-0-1"), "height");
        double pixelsPerByte = Svg.num(bars.get("bar-0-0-0"), "height") / 1200.0;
        assertTrue(pixelsPerByte > 0.05, "bars are visible: " + pixelsPerByte);
        RESNET.forEach((id, traffic) -> {
            if (traffic == 0) {
                return;
            }
            double[] r = Svg.rect(bars.get(id));
            assertEquals(foot, r[1] + r[3], 1e-6, id + " stands on the axis' zero");
            assertEquals(traffic * pixelsPerByte, r[3], 1e-6, id + " is as high as its traffic");
            assertEquals(TrafficFigure.colour(id.endsWith("0") ? 0 : 1), Svg.fill(bars.get(id)), id + " has its series' colour");
        });
        // Groups left to right M_R, M_H, M_P; within a group belady left of cosma.
        double[] xs = {Svg.num(bars.get("bar-0-0-0"), "x"), Svg.num(bars.get("bar-0-0-1"), "x"),
            Svg.num(bars.get("bar-0-1-0"), "x"), Svg.num(bars.get("bar-0-1-1"), "x"), Svg.num(bars.get("bar-0-2-0"), "x")};
        for (int i = 1; i < xs.length; i++) {
            assertTrue(xs[i - 1] < xs[i], "bar " + i + " is right of bar " + (i - 1));
        }
        // vgg16 is the second panel, to the right of the first.
        assertTrue(Svg.num(bars.get("bar-1-0-0"), "x") > xs[4]);
    }

    @Test
    void cellsNotProvenOptimalAndZerosAreMarkedAboveTheirBars() throws Exception {
        Svg svg = new Svg(FigureFile.svg(new TrafficFigure(cells(), false, "t")));
        Map<String, Element> marks = svg.byIdPrefix("mark-");
        assertEquals(Map.of("mark-0-0-0", "H", "mark-0-1-1", "F 25.0%", "mark-0-1-0", "H", "mark-0-2-1", "0",
                "mark-0-2-0", "H", "mark-1-0-1", "U", "mark-1-0-0", "H"),
                marks.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                        e -> Svg.text(e.getValue()))));
        Map<String, Element> bars = svg.byIdPrefix("bar-");
        double foot = Svg.num(bars.get("bar-0-0-1"), "y") + Svg.num(bars.get("bar-0-0-1"), "height");
        for (String id : List.of("0-1-1", "0-0-0", "0-2-1")) {
            double[] bar = id.equals("0-2-1") ? new double[] {Svg.num(bars.get("bar-0-2-0"), "x")
                - Svg.num(bars.get("bar-0-0-0"), "x") + Svg.num(bars.get("bar-0-0-1"), "x"), foot, Svg.num(bars.get("bar-0-0-1"),
                "width"), 0} : Svg.rect(bars.get("bar-" + id));
            double[] at = Svg.textAnchor(marks.get("mark-" + id));
            assertEquals(bar[0] + bar[2] / 2, at[0], 6, id + ": the mark is centred on its bar's slot");
            assertTrue(at[1] < bar[1] && at[1] > bar[1] - 6, id + ": the mark starts just above the bar (zero: the foot)");
        }
    }

    @Test
    void onALogAxisHeightsFollowTheLogarithmAndZeroSitsAtTheFoot() throws Exception {
        Svg svg = new Svg(FigureFile.svg(new TrafficFigure(cells(), true, "t")));
        Map<String, Element> bars = svg.byIdPrefix("bar-");
        assertEquals(6, bars.size());
        double foot = Svg.num(bars.get("bar-0-0-1"), "y") + Svg.num(bars.get("bar-0-0-1"), "height");
        double[] zeroMark = Svg.textAnchor(svg.byIdPrefix("mark-0-2-1").values().iterator().next());
        assertTrue(zeroMark[1] < foot && zeroMark[1] > foot - 6, "zero traffic: '0' at the axis' foot");
        // Least positive traffic 100: the axis starts a decade below, at 10 bytes.
        double perDecade = Svg.num(bars.get("bar-0-1-1"), "height") / (Math.log10(100) - 1);
        RESNET.forEach((id, traffic) -> {
            if (traffic > 0) {
                double[] r = Svg.rect(bars.get(id));
                assertEquals(foot, r[1] + r[3], 1e-6, id);
                assertEquals((Math.log10(traffic) - 1) * perDecade, r[3], 1e-6, id);
            }
        });
    }

    @Test
    void thePngHasTheFiguresSizeAndTheSeriesColoursWhereTheBarsAre() throws Exception {
        TrafficFigure figure = new TrafficFigure(cells(), false, "t");
        Path png = dir.resolve("traffic.png");
        FigureFile.write(figure, png);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(Files.readAllBytes(png)));
        assertEquals(figure.width(), image.getWidth());
        assertEquals(figure.height(), image.getHeight());
        Svg svg = new Svg(FigureFile.svg(figure));
        for (Map.Entry<String, Element> bar : svg.byIdPrefix("bar-").entrySet()) {
            double[] r = Svg.rect(bar.getValue());
            if (r[3] < 4) {
                continue;
            }
            Color expected = TrafficFigure.colour(bar.getKey().endsWith("0") ? 0 : 1);
            assertEquals(expected.getRGB(), image.getRGB((int) (r[0] + r[2] / 2), (int) (r[1] + r[3] / 2)), bar.getKey());
        }
        // Where vgg16's cosma bar would stand there is no colour of either series.
        double[] belady = Svg.rect(svg.byIdPrefix("bar-1-0-0").values().iterator().next());
        int rgb = image.getRGB((int) (belady[0] + belady[2] * 1.5), (int) (belady[1] + belady[3] - 3));
        assertFalse(rgb == TrafficFigure.colour(0).getRGB() || rgb == TrafficFigure.colour(1).getRGB());
        try (var files = Files.list(dir)) {
            assertEquals(List.of("r.csv", "traffic.png"), files.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no temporary file is left");
        }
    }
}
