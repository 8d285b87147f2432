package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

class FrontFigureTest {
    @TempDir
    Path dir;

    private static FinishedCase row(String graph, String planner, Double weight, FinishedCase.Status status,
            Long traffic, Long cost) {
        return new FinishedCase(graph, "activations", "M_R", 1000L, planner, planner.equals("cosma") ? "cpsat" : "",
                null, 0, status, traffic, null, null, 1.0, null, cost, weight);
    }

    /**
     * One network: a spill-only scheme (one point at cost 0), DTR at three weights (recomputing more when cheap),
     * checkpointing at two weights (the same plan), COSMA at three weights (one of them without a plan).
     */
    static List<FinishedCase> rows() {
        FinishedCase.Status h = FinishedCase.Status.HEURISTIC;
        FinishedCase.Status o = FinishedCase.Status.OPTIMAL;
        return List.of(
                row("net:train", "default/belady/tflite", null, h, 9000L, 0L),
                row("net:train", "default/dtr/belady/tflite", 0.01, h, 1000L, 400_000L),
                row("net:train", "default/dtr/belady/tflite", 1.0, h, 4000L, 100_000L),
                row("net:train", "default/dtr/belady/tflite", 100.0, h, 9000L, 0L),
                row("net:train", "default/checkpoint-sqrt/belady/tflite", 0.01, h, 5000L, 300_000L),
                row("net:train", "default/checkpoint-sqrt/belady/tflite", 1.0, h, 5000L, 300_000L),
                row("net:train", "cosma", 0.01, o, 3000L, 0L),
                row("net:train", "cosma", 1.0, o, 3000L, 0L),
                row("net:train", "cosma", 100.0, FinishedCase.Status.UNKNOWN, null, null),
                row("other:train", "cosma", 1.0, o, 700L, 50L),
                row("other:train", "default/dtr/belady/tflite", 1.0, h, 800L, 20L));
    }

    @Test
    void theFrontIsThePointsNothingMatchesOrBeatsInBoth() {
        List<FrontFigure.Point> points = List.of(new FrontFigure.Point(5, 100, 1.0),
                new FrontFigure.Point(0, 100, null), new FrontFigure.Point(10, 60, 2.0),
                new FrontFigure.Point(10, 50, 1.0), new FrontFigure.Point(10, 50, 0.5),
                new FrontFigure.Point(20, 50, 0.5), new FrontFigure.Point(30, 0, 0.1),
                new FrontFigure.Point(40, 0, 0.01));
        assertEquals(List.of(new FrontFigure.Point(0, 100, null), new FrontFigure.Point(10, 50, 0.5),
                new FrontFigure.Point(30, 0, 0.1)), FrontFigure.front(points));
        assertEquals(List.of(new FrontFigure.Point(7, 7, 1.0)), FrontFigure.front(List.of(
                new FrontFigure.Point(7, 7, 1.0))));
    }

    @Test
    void onePanelPerNetworkWithEachPlannersPointsAndTheFront() {
        FrontFigure f = new FrontFigure(rows(), null, null, null, null, "t");
        assertEquals(2, f.panels().size());
        int plans = f.panels().stream().mapToInt(p -> p.points().stream().mapToInt(List::size).sum()).sum();
        assertEquals("2 panels, 4 planners, " + plans + " plans", f.summary());
        assertEquals("net:train (activations), M_R = 1 kB", f.panels().get(0).title());
        // By name, COSMA last.
        assertEquals(List.of("default/belady/tflite", "default/checkpoint-sqrt/belady/tflite",
                "default/dtr/belady/tflite", "cosma"), f.series());
        FrontFigure.Panel net = f.panels().get(0);
        // COSMA's spill-only plan at cost 0 beats the schemes' until DTR's cheapest weight buys traffic down to 1000.
        assertEquals(List.of(new FrontFigure.Point(0, 3000, 0.01), new FrontFigure.Point(400_000, 1000, 0.01)),
                net.front());
        assertEquals("λ 0.01, 1", FrontFigure.weights(net, net.front().get(0)));
        FrontFigure.Point at = new FrontFigure.Point(3, 4, null);
        FrontFigure.Panel many = new FrontFigure.Panel("g", "activations", "M_R", null, List.of(List.of(at,
                new FrontFigure.Point(3, 4, 8.0), new FrontFigure.Point(3, 4, 0.001953125),
                new FrontFigure.Point(3, 4, 0.125), new FrontFigure.Point(3, 5, 100.0))), List.of(at));
        assertEquals("λ 0.00195 … 8", FrontFigure.weights(many, at));
        assertEquals("", FrontFigure.weights(many, new FrontFigure.Point(0, 0, null)));
        // Each panel's front is its own: on the other network DTR's plan is the cheaper, COSMA's the lighter.
        assertEquals(List.of(new FrontFigure.Point(20, 800, 1.0), new FrontFigure.Point(50, 700, 1.0)),
                f.panels().get(1).front());
    }

    @Test
    void theSvgPlacesEveryPointByItsCostAndTrafficAndDrawsTheFrontThroughItsPoints() {
        FrontFigure f = new FrontFigure(rows(), null, List.of("net:train"), null, null, "recompute front");
        Svg svg = new Svg(FigureFile.svg(f));
        Map<String, Element> points = svg.byIdPrefix("point-");
        // 8 plans of net:train (COSMA at weight 100 has none and is not drawn).
        assertEquals(8, points.size(), points.keySet().toString());
        FrontFigure.Panel panel = f.panels().get(0);
        List<double[]> data = new ArrayList<>();
        List<double[]> pixels = new ArrayList<>();
        for (int s = 0; s < f.series().size(); s++) {
            for (int i = 0; i < panel.points().get(s).size(); i++) {
                FrontFigure.Point p = panel.points().get(s).get(i);
                Element e = points.get("point-0-" + s + "-" + i);
                assertTrue(e != null, "point-0-" + s + "-" + i + " in " + points.keySet());
                data.add(new double[] {p.cost(), p.traffic()});
                pixels.add(centre(e));
            }
        }
        // Pixels are an affine map of the data: x grows with cost, y falls with traffic, at one scale each.
        double[] a = pixels.get(0);
        double[] d0 = data.get(0);
        double sx = Double.NaN;
        double sy = Double.NaN;
        for (int k = 1; k < data.size(); k++) {
            double[] d = data.get(k);
            double[] p = pixels.get(k);
            if (d[0] != d0[0]) {
                double scale = (p[0] - a[0]) / (d[0] - d0[0]);
                assertTrue(scale > 0, "x grows with cost");
                sx = Double.isNaN(sx) ? scale : sx;
                assertEquals(sx, scale, 1e-3 * Math.abs(sx));
            } else {
                assertEquals(a[0], p[0], 0.01);
            }
            if (d[1] != d0[1]) {
                double scale = (p[1] - a[1]) / (d[1] - d0[1]);
                assertTrue(scale < 0, "y falls as traffic grows");
                sy = Double.isNaN(sy) ? scale : sy;
                assertEquals(sy, scale, 1e-3 * Math.abs(sy));
            } else {
                assertEquals(a[1], p[1], 0.01);
            }
        }
        // The front: a staircase from its first point to its last, turning at each of them.
        Element front = svg.byIdPrefix("front-0").get("front-0");
        Element stairs = front.getTagName().equals("path") ? front : (Element) front.getElementsByTagName("path").item(0);
        List<double[]> vertices = pathPoints(stairs.getAttribute("d"));
        assertEquals(1 + 2 * (panel.front().size() - 1), vertices.size());
        double[] first = pixelOf(panel.front().get(0), d0, a, sx, sy);
        double[] last = pixelOf(panel.front().get(panel.front().size() - 1), d0, a, sx, sy);
        assertEquals(first[0], vertices.get(0)[0], 0.01);
        assertEquals(first[1], vertices.get(0)[1], 0.01);
        assertEquals(last[0], vertices.get(vertices.size() - 1)[0], 0.01);
        assertEquals(last[1], vertices.get(vertices.size() - 1)[1], 0.01);
        // Labels: the weights at each front point; the legend names the series and the front; the note counts the
        // case without a plan.
        Map<String, Element> labels = svg.byIdPrefix("label-0-");
        assertEquals(List.of("λ 0.01, 1", "λ 0.01"), labels.values().stream().map(Svg::text).toList());
        String text = String.join("\n", svg.all("text").stream().map(Svg::text).toList());
        for (String s : f.series()) {
            assertTrue(text.contains(s), s + " in the legend");
        }
        assertTrue(text.contains("Pareto front"));
        assertTrue(text.contains("1 case without a plan not drawn"), text);
        assertTrue(text.contains("recompute front"));
    }

    @Test
    void resultsFromBeforeRecomputationAreSpillOnlyPointsAndFiltersNameWhatIsMissing() throws Exception {
        Path csv = dir.resolve("old.csv");
        Files.writeString(csv, Results.csv(TrafficFigureTest.rows()));
        FrontFigure f = new FrontFigure(ResultsFile.read(csv), null, List.of("resnet50"), List.of("M_R"), null, "t");
        FrontFigure.Panel p = f.panels().get(0);
        assertEquals(List.of(new FrontFigure.Point(0, 400, null)), p.front());
        assertTrue(p.points().stream().flatMap(List::stream).allMatch(q -> q.cost() == 0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FrontFigure(ResultsFile.read(csv), null,
                List.of("resnet18"), null, null, "t")).getMessage().contains("no results for graph 'resnet18'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FrontFigure(ResultsFile.read(csv), null,
                List.of("vgg16"), null, List.of("cosma"), "t")).getMessage().contains("has a plan"));
        byte[] png = FigureFile.png(f);
        assertTrue(png.length > 1000);
    }

    private static double[] pixelOf(FrontFigure.Point p, double[] d0, double[] a, double sx, double sy) {
        return new double[] {a[0] + (p.cost() - d0[0]) * sx, a[1] + (p.traffic() - d0[1]) * sy};
    }

    /** The centre of a point's shape, from its element: an ellipse, a rect or a path (its bounding box). */
    private static double[] centre(Element e) {
        switch (e.getTagName()) {
            case "g" -> {
                return centre((Element) e.getElementsByTagName("*").item(0));
            }
            case "ellipse", "circle" -> {
                return new double[] {Svg.num(e, "cx"), Svg.num(e, "cy")};
            }
            case "rect" -> {
                double[] r = Svg.rect(e);
                return new double[] {r[0] + r[2] / 2, r[1] + r[3] / 2};
            }
            case "path" -> {
                List<double[]> v = pathPoints(e.getAttribute("d"));
                double minX = Double.MAX_VALUE;
                double maxX = -Double.MAX_VALUE;
                double minY = Double.MAX_VALUE;
                double maxY = -Double.MAX_VALUE;
                for (double[] q : v) {
                    minX = Math.min(minX, q[0]);
                    maxX = Math.max(maxX, q[0]);
                    minY = Math.min(minY, q[1]);
                    maxY = Math.max(maxY, q[1]);
                }
                return new double[] {(minX + maxX) / 2, (minY + maxY) / 2};
            }
            default -> throw new AssertionError("a point drawn as " + e.getTagName());
        }
    }

    /** The absolute vertices of a path of M and L commands (as JFreeSVG writes polylines). */
    private static List<double[]> pathPoints(String d) {
        List<double[]> out = new ArrayList<>();
        Matcher m = Pattern.compile("[ML]\\s*(-?[\\d.]+)[ ,](-?[\\d.]+)").matcher(d);
        while (m.find()) {
            out.add(new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))});
        }
        return out;
    }
}
