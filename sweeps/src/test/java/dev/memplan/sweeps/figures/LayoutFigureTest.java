package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Placement;
import dev.memplan.model.Plan;
import dev.memplan.model.Rule;
import dev.memplan.model.Segment;
import dev.memplan.model.io.PlanJson;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class LayoutFigureTest {
    private static final double EPS = 1e-6;

    /** The hand-made plan for fig1 at budget 48: two loads of a0, a2 spilled at timestep 2 and loaded at 6. */
    static Plan examplePlan() throws IOException {
        try (InputStream in = Examples.class.getResourceAsStream("/dev/memplan/datasets/examples/fig1-48.plan.json")) {
            return PlanJson.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), "fig1-48.plan.json");
        }
    }

    /** Data to drawing coordinates, as the axes define them: x in [0, xEnd] across, y in [0, yTop] upwards. */
    private record Axes(Rectangle2D area, double xEnd, double yTop) {
        double x(double t) {
            return area.getMinX() + t / xEnd * area.getWidth();
        }

        double y(double address) {
            return area.getMaxY() - address / yTop * area.getHeight();
        }

        void assertRect(Element rect, double t0, double t1, double a0, double a1, String what) {
            double[] r = Svg.rect(rect);
            assertEquals(x(t0), r[0], EPS, what + " x");
            assertEquals(x(t1) - x(t0), r[2], EPS, what + " width");
            assertEquals(y(a1), r[1], EPS, what + " y");
            assertEquals(y(a0) - y(a1), r[3], EPS, what + " height");
        }
    }

    @Test
    void oneRectanglePerSegmentAtItsTimestepsAndAddressesAndTheBudgetLine() throws IOException {
        Graph graph = Examples.graph("fig1");
        Plan plan = examplePlan();
        LayoutFigure figure = LayoutFigure.ofPlan(graph, plan);
        Svg svg = new Svg(FigureFile.svg(figure));
        assertEquals(7, figure.timeEnd(), "x runs over the 7 timesteps");
        assertEquals(48 * LayoutFigure.HEADROOM, figure.addressTop(), EPS, "y runs to 8% above the budget");
        Axes axes = new Axes(figure.dataArea(), 7, 48 * LayoutFigure.HEADROOM);

        Map<String, Element> rects = svg.byIdPrefix("seg-");
        assertEquals(plan.segmentCount(), rects.size());
        Set<String> loads = new HashSet<>();
        Set<String> spills = new HashSet<>();
        for (int t = 0; t < graph.tensorCount(); t++) {
            String name = graph.tensor(t).name();
            List<Segment> segments = plan.segmentsOf(name);
            for (int k = 0; k < segments.size(); k++) {
                Segment s = segments.get(k);
                axes.assertRect(rects.get("seg-" + t + "-" + k), s.start(), s.end() + 1, s.offset(),
                        s.offset() + graph.size(t), name + " segment " + k);
                if (s.origin() == Origin.LOADED) {
                    loads.add("load-" + t + "-" + k);
                }
            }
        }
        // a0 (a graph input) is loaded twice, a2 (produced) once after its spill at the end of its first segment.
        assertEquals(Set.of("load-0-0", "load-0-1", "load-2-1"), loads);
        spills.add("spill-2-0");
        assertEquals(loads, svg.byIdPrefix("load-").keySet());
        assertEquals(spills, svg.byIdPrefix("spill-").keySet());
        double[] spill = Svg.rect(svg.byIdPrefix("spill-").get("spill-2-0"));
        assertEquals(axes.x(3), spill[0] + spill[2], EPS, "the spill mark is the right edge of a2's first segment");
        double[] load = Svg.rect(svg.byIdPrefix("load-").get("load-2-1"));
        assertEquals(axes.x(6), load[0], EPS, "the load mark is the left edge of a2's loaded segment");

        Element budget = svg.byIdPrefix("budget").get("budget");
        assertEquals("line", budget.getTagName());
        assertEquals(axes.y(48), Svg.num(budget, "y1"), EPS);
        assertEquals(axes.y(48), Svg.num(budget, "y2"), EPS);
        assertEquals(axes.x(0), Svg.num(budget, "x1"), EPS);
        assertEquals(axes.x(7), Svg.num(budget, "x2"), EPS);
    }

    @Test
    void thePngShowsEachSegmentsColourInsideIt() throws IOException {
        LayoutFigure figure = LayoutFigure.ofPlan(Examples.graph("fig1"), examplePlan());
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(FigureFile.png(figure)));
        assertEquals(figure.width(), image.getWidth());
        assertEquals(figure.height(), image.getHeight());
        Svg svg = new Svg(FigureFile.svg(figure));
        int checked = 0;
        for (Element rect : svg.byIdPrefix("seg-").values()) {
            double[] r = Svg.rect(rect);
            // Clear of the outline, the load stripe on the left and the name in the middle.
            assertEquals(Svg.fill(rect).getRGB(), image.getRGB((int) (r[0] + 7), (int) (r[1] + 3)), rect.getAttribute("id"));
            checked++;
        }
        assertEquals(11, checked);
    }

    @Test
    void anInvalidPlanIsNotDrawn() throws IOException {
        Plan plan = examplePlan();
        Map<String, List<Segment>> segments = new LinkedHashMap<>(plan.segments());
        // a3 moved onto a1's addresses while both are resident.
        segments.put("a3", List.of(Segment.created(1, 3, 8)));
        LayoutFigure.InvalidLayoutException e = assertThrows(LayoutFigure.InvalidLayoutException.class,
                () -> LayoutFigure.ofPlan(Examples.graph("fig1"), plan.withSegments(segments)));
        assertTrue(e.violations().stream().anyMatch(v -> v.rule() == Rule.ADDRESS_OVERLAP && v.subjects().contains("a3")),
                e.violations().toString());
    }

    @Test
    void aPlacementIsOneRectanglePerBufferUnderTheCapacityLine() {
        BufferSet buffers = new BufferSet(List.of(new Buffer("b1", 0, 3, 4), new Buffer("b2", 3, 9, 4),
                new Buffer("b3", 0, 9, 4), new Buffer("b4", 9, 21, 4), new Buffer("b5", 0, 21, 4)));
        long[] offsets = {0, 0, 4, 0, 8};
        LayoutFigure figure = LayoutFigure.ofPlacement("input.16.csv", new Placement(buffers, offsets), 16L);
        Svg svg = new Svg(FigureFile.svg(figure));
        Axes axes = new Axes(figure.dataArea(), 21, 16 * LayoutFigure.HEADROOM);
        Map<String, Element> rects = svg.byIdPrefix("buf-");
        assertEquals(5, rects.size());
        for (int i = 0; i < 5; i++) {
            Buffer b = buffers.get(i);
            axes.assertRect(rects.get("buf-" + i), b.lower(), b.upper(), offsets[i], offsets[i] + b.size(), b.id());
        }
        Element capacity = svg.byIdPrefix("budget").get("budget");
        assertEquals(axes.y(16), Svg.num(capacity, "y1"), EPS);
        assertTrue(svg.byIdPrefix("load-").isEmpty() && svg.byIdPrefix("spill-").isEmpty());

        // Without a capacity the placement is checked against its height and no line is drawn.
        LayoutFigure noLine = LayoutFigure.ofPlacement("out.csv", new Placement(buffers, offsets), null);
        assertTrue(new Svg(FigureFile.svg(noLine)).byIdPrefix("budget").isEmpty());
        // Overlapping buffers, or a capacity below the height: refused with the checker's violations.
        assertThrows(LayoutFigure.InvalidLayoutException.class,
                () -> LayoutFigure.ofPlacement("x", new Placement(buffers, new long[] {0, 0, 2, 0, 8}), 16L));
        assertThrows(LayoutFigure.InvalidLayoutException.class,
                () -> LayoutFigure.ofPlacement("x", new Placement(buffers, offsets), 11L));
    }

    @Test
    void aDenseLayoutDrawsEverySegmentButNoStripesWhereTheyDoNotFit() {
        // The just-in-time plan: every tensor resident only at the timesteps that use it, loaded for each use.
        Graph graph = dev.memplan.datasets.GeneratedGraphs.graph("gen:layered:400");
        Plan plan = new dev.memplan.model.JustInTimePlanner().plan(graph, dev.memplan.model.TensorSetting.ACTIVATIONS,
                dev.memplan.model.Budgets.minimumRequired(graph), dev.memplan.model.Limits.DEFAULT);
        assertTrue(plan.segments().values().stream().flatMap(List::stream).anyMatch(x -> x.origin() == Origin.LOADED));
        LayoutFigure figure = LayoutFigure.ofPlan(graph, plan);
        Svg svg = new Svg(FigureFile.svg(figure));
        Map<String, Element> segments = svg.byIdPrefix("seg-");
        assertEquals(plan.segmentCount(), segments.size());
        double pixelsPerStep = figure.dataArea().getWidth() / 400;
        assertTrue(pixelsPerStep < 2 * LayoutFigure.MIN_DETAIL, "dense: " + pixelsPerStep + " px per timestep");
        Set<String> marked = new HashSet<>();
        svg.byIdPrefix("load-").keySet().forEach(id -> marked.add(id.substring("load-".length())));
        svg.byIdPrefix("spill-").keySet().forEach(id -> marked.add(id.substring("spill-".length())));
        for (Map.Entry<String, Element> e : segments.entrySet()) {
            double width = Svg.num(e.getValue(), "width");
            if (width < 2 * LayoutFigure.MIN_DETAIL) {
                assertFalse(marked.contains(e.getKey().substring("seg-".length())), e.getKey() + " is " + width
                        + " px wide: no stripe");
            }
        }
    }
}
