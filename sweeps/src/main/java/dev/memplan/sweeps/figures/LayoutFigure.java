package dev.memplan.sweeps.figures;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Placement;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Segment;
import dev.memplan.model.Violation;
import dev.memplan.model.BufferChecker;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.annotations.AbstractXYAnnotation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.svg.SVGHints;

/**
 * The memory layout of a plan or a placement, as MiniMalloc's and TelaMalloc's papers draw it: time on the x axis,
 * address on the y axis, each resident segment (or buffer) a rectangle, the budget (capacity) a dashed red line.
 *
 * <p>For a plan, segment {@code [start, end]} at {@code offset} is the rectangle {@code [start, end + 1) x [offset,
 * offset + size)}: timestep t is the unit interval [t, t + 1). A tensor keeps one colour over all its segments. A
 * loaded segment carries a green stripe on its left edge; the segment after which a produced tensor is written to
 * host memory (its first segment, when a loaded segment follows: memory-model.md, "Traffic") carries a red stripe
 * on its right edge. A graph output's write is marked too, although the traffic counts it as compulsory. In a layout too dense for them (a box under 3 pixels wide or high has no outline, one under 6
 * pixels wide no stripes) the title's totals still count every load and spill. A buffer {@code [lower, upper)} at {@code offset} is the rectangle {@code [lower, upper) x
 * [offset, offset + size)}. The y axis runs from 0 to 8% above the larger of budget and peak address.
 *
 * <p>Only checked layouts are drawn: {@link #ofPlan} and {@link #ofPlacement} refuse an invalid plan or placement
 * with its violations ({@link InvalidLayoutException}); a picture of a broken plan would look like a plan. In SVG,
 * segments have the ids {@code seg-T-K} (tensor index T in the graph's setting, K-th segment by start), loads
 * {@code load-T-K}, spills {@code spill-T-K}, buffers {@code buf-I}, and the line {@code budget}. Time and SVG size
 * O(segments).
 */
public final class LayoutFigure implements FigureFile.Drawing {
    /** Twelve light colours that keep black outlines and the red budget line readable. */
    private static final List<Color> FILLS = List.of(new Color(0x8DD3C7), new Color(0xFFFFB3), new Color(0xBEBADA),
            new Color(0xFB8072), new Color(0x80B1D3), new Color(0xFDB462), new Color(0xB3DE69), new Color(0xFCCDE5),
            new Color(0xD9D9D9), new Color(0xBC80BD), new Color(0xCCEBC5), new Color(0xFFED6F));
    static final Color LOAD = new Color(0x1B7837);
    static final Color SPILL = new Color(0xC51B7D);
    static final Color BUDGET = new Color(0xD62728);
    /** Boxes narrower or lower than this (pixels) get no outline; narrower than twice this, no stripes. */
    static final double MIN_DETAIL = 3;
    /** Headroom above the larger of budget and peak address. */
    static final double HEADROOM = 1.08;

    /** A rectangle in data coordinates, with its id and fill, and optional left/right edge marks. */
    record Box(String id, String label, double x0, double x1, double y0, double y1, Color fill, String loadId,
               String spillId) {
    }

    /** A plan or placement that breaks its checker's rules; the violations say how. */
    public static final class InvalidLayoutException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient List<Violation> violations;

        InvalidLayoutException(String what, List<Violation> violations) {
            super(what + " is invalid (" + violations.size() + " violation" + (violations.size() == 1 ? "" : "s")
                    + "); nothing drawn");
            this.violations = List.copyOf(violations);
        }

        public List<Violation> violations() {
            return violations;
        }
    }

    private final String title;
    private final String xLabel;
    private final double timeEnd;
    private final long limit;
    private final String limitName;
    private final double yTop;
    private final List<Box> boxes;
    private final int width;
    private final int height;
    private Rectangle2D dataArea;

    private LayoutFigure(String title, String xLabel, double timeEnd, long limit, String limitName, long peak,
            List<Box> boxes) {
        this.title = title;
        this.xLabel = xLabel;
        this.timeEnd = Math.max(1, timeEnd);
        this.limit = limit;
        this.limitName = limitName;
        this.yTop = Math.max(1, Math.max(limit, peak)) * HEADROOM;
        this.boxes = List.copyOf(boxes);
        this.width = (int) Math.min(2400, Math.max(720, 160 + 10 * this.timeEnd));
        this.height = 520;
    }

    /**
     * The layout of a plan, which must pass the {@link PlanChecker}.
     *
     * @throws InvalidLayoutException with the checker's violations when the plan is invalid
     */
    public static LayoutFigure ofPlan(Graph graph, Plan plan) {
        CheckReport report = PlanChecker.check(graph, plan);
        if (!report.valid()) {
            throw new InvalidLayoutException("the plan", report.violations());
        }
        Graph g = graph.withSetting(plan.setting());
        List<Box> boxes = new ArrayList<>();
        for (int t = 0; t < g.tensorCount(); t++) {
            List<Segment> segments = new ArrayList<>(plan.segmentsOf(g.tensor(t).name()));
            segments.sort(Comparator.comparingInt(Segment::start));
            boolean written = !g.isHost(t) && segments.stream().anyMatch(s -> s.origin() == Origin.LOADED);
            long size = g.size(t);
            for (int k = 0; k < segments.size(); k++) {
                Segment s = segments.get(k);
                String id = t + "-" + k;
                boxes.add(new Box("seg-" + id, g.tensor(t).name(), s.start(), s.end() + 1, s.offset(), s.offset() + size,
                        FILLS.get(t % FILLS.size()), s.origin() == Origin.LOADED ? "load-" + id : null,
                        written && k == 0 ? "spill-" + id : null));
            }
        }
        String traffic = "non-compulsory traffic " + report.traffic().nonCompulsory() + " B (" + report.traffic().loads()
                + " B loaded, " + report.traffic().spills() + " B spilled)";
        return new LayoutFigure(g.name() + " (" + plan.setting().fileName() + "), budget " + plan.budget() + " B: "
                + traffic + ", peak address " + report.peakAddress() + " B", "timestep", plan.schedule().length(),
                plan.budget(), "budget", report.peakAddress(), boxes);
    }

    /**
     * The layout of a placement (fixed-schedule buffers with offsets), which must pass the {@link BufferChecker}
     * at the capacity; with no capacity it is checked against its own height and no line is drawn.
     *
     * @throws InvalidLayoutException with the checker's violations when the placement is invalid
     */
    public static LayoutFigure ofPlacement(String name, Placement placement, Long capacity) {
        long height = placement.height();
        List<Violation> violations = BufferChecker.check(placement, capacity == null ? height : capacity);
        if (!violations.isEmpty()) {
            throw new InvalidLayoutException("the placement", violations);
        }
        List<Box> boxes = new ArrayList<>();
        long end = 0;
        for (int i = 0; i < placement.buffers().size(); i++) {
            var b = placement.buffers().get(i);
            long offset = placement.offset(i);
            boxes.add(new Box("buf-" + i, b.id(), b.lower(), b.upper(), offset, offset + b.size(), FILLS.get(i % FILLS.size()),
                    null, null));
            end = Math.max(end, b.upper());
        }
        return new LayoutFigure(name + ": " + placement.buffers().size() + " buffers, height " + height + " B"
                + (capacity == null ? "" : ", capacity " + capacity + " B"), "time", end,
                capacity == null ? -1 : capacity, "capacity", height, boxes);
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public int height() {
        return height;
    }

    /** The x axis' range: [0, this]. */
    double timeEnd() {
        return timeEnd;
    }

    /** The y axis' range: [0, this]. */
    double addressTop() {
        return yTop;
    }

    /** Where the last drawing put the plot's data area (for tests that map data to drawing coordinates). */
    Rectangle2D dataArea() {
        return dataArea;
    }

    @Override
    public void draw(Graphics2D g2, Rectangle2D area) {
        NumberAxis time = new NumberAxis(xLabel);
        time.setRange(0, timeEnd);
        time.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        NumberAxis address = new NumberAxis("address");
        address.setRange(0, yTop);
        address.setNumberFormatOverride(new Numbers.TickFormat(true));
        XYPlot plot = new XYPlot(null, time, address, new XYLineAndShapeRenderer());
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinesVisible(false);
        plot.setRangeGridlinePaint(new Color(0xEEEEEE));
        plot.addAnnotation(new Boxes());
        LegendItemCollection legend = new LegendItemCollection();
        legend.add(new LegendItem(xLabel.equals("timestep") ? "segment (one colour per tensor)" : "buffer",
                FILLS.get(0)));
        if (xLabel.equals("timestep")) {
            legend.add(new LegendItem("loaded (left edge)", LOAD));
            legend.add(new LegendItem("spilled to host (right edge)", SPILL));
        }
        if (limit >= 0) {
            legend.add(new LegendItem(limitName, BUDGET));
        }
        plot.setFixedLegendItems(legend);
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 13), plot, false);
        LegendTitle legendTitle = new LegendTitle(plot);
        legendTitle.setPosition(RectangleEdge.BOTTOM);
        chart.addLegend(legendTitle);
        chart.setBackgroundPaint(Color.WHITE);
        chart.draw(g2, area);
    }

    /** Draws every box, its marks and the limit line in one pass over the data area. */
    private final class Boxes extends AbstractXYAnnotation {
        private static final long serialVersionUID = 1L;

        @Override
        public void draw(Graphics2D g2, XYPlot plot, Rectangle2D area, ValueAxis domainAxis, ValueAxis rangeAxis,
                int rendererIndex, PlotRenderingInfo info) {
            dataArea = (Rectangle2D) area.clone();
            BasicStroke outline = new BasicStroke(0.5f);
            Font labelFont = new Font(Font.SANS_SERIF, Font.PLAIN, 10);
            g2.setFont(labelFont);
            java.awt.FontMetrics metrics = g2.getFontMetrics();
            for (Box b : boxes) {
                double x0 = domainAxis.valueToJava2D(b.x0(), area, RectangleEdge.BOTTOM);
                double x1 = domainAxis.valueToJava2D(b.x1(), area, RectangleEdge.BOTTOM);
                double yTopPx = rangeAxis.valueToJava2D(b.y1(), area, RectangleEdge.LEFT);
                double yBottomPx = rangeAxis.valueToJava2D(b.y0(), area, RectangleEdge.LEFT);
                Rectangle2D r = new Rectangle2D.Double(x0, yTopPx, x1 - x0, yBottomPx - yTopPx);
                g2.setPaint(b.fill());
                g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, b.id());
                g2.fill(r);
                // Outlines and stripes on boxes a few pixels wide would paint over the colours (a dense layout).
                if (x1 - x0 >= MIN_DETAIL && yBottomPx - yTopPx >= MIN_DETAIL) {
                    g2.setPaint(Color.DARK_GRAY);
                    g2.setStroke(outline);
                    g2.draw(r);
                }
                double stripe = Math.min(4, (x1 - x0) / 3);
                if (x1 - x0 < 2 * MIN_DETAIL) {
                    continue;
                }
                if (b.loadId() != null) {
                    g2.setPaint(LOAD);
                    g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, b.loadId());
                    g2.fill(new Rectangle2D.Double(x0, yTopPx, stripe, yBottomPx - yTopPx));
                }
                if (b.spillId() != null) {
                    g2.setPaint(SPILL);
                    g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, b.spillId());
                    g2.fill(new Rectangle2D.Double(x1 - stripe, yTopPx, stripe, yBottomPx - yTopPx));
                }
                // The name where it fits: small layouts read like the papers' figures, large ones stay clean.
                if (metrics.stringWidth(b.label()) + 2 * stripe + 4 < x1 - x0 && metrics.getHeight() < yBottomPx - yTopPx) {
                    g2.setPaint(Color.BLACK);
                    g2.drawString(b.label(), (float) ((x0 + x1 - metrics.stringWidth(b.label())) / 2),
                            (float) ((yTopPx + yBottomPx + metrics.getAscent() - metrics.getDescent()) / 2));
                }
            }
            if (limit >= 0) {
                double y = rangeAxis.valueToJava2D(limit, area, RectangleEdge.LEFT);
                g2.setPaint(BUDGET);
                g2.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
                g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, "budget");
                g2.draw(new Line2D.Double(area.getMinX(), y, area.getMaxX(), y));
                g2.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
                g2.drawString(String.format(Locale.ROOT, "%s %d B", limitName, limit), (float) area.getMinX() + 4,
                        (float) y - 4);
            }
        }
    }
}
