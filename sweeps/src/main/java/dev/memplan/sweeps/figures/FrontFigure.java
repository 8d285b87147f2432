package dev.memplan.sweeps.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.annotations.AbstractXYAnnotation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.block.RectangleConstraint;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.Size2D;
import org.jfree.data.Range;
import org.jfree.svg.SVGHints;

/**
 * The trade-off of recomputation (memory-model.md, "Recomputation"): for one network at one budget, each planner's
 * plans as points (recompute cost, non-compulsory traffic), one point per recompute weight lambda the sweep ran it
 * at, and the Pareto front of all the panel's points: those that no other point matches or beats in both cost and
 * traffic, joined by a staircase (the least traffic reachable at each recompute cost). A spill-only planner is one
 * point at cost 0. One panel per network, tensor setting and budget (three a row), the planners' colours and
 * shapes shared by every panel, the legend below. The front's points are labelled with the weights that reached
 * them. Cases without a plan are not drawn (the note line counts them); results from before recomputation have
 * no recompute cost and are drawn at cost 0, which their plans are.
 *
 * <p>In SVG every point is a shape with the id {@code point-P-S-I} (panel, series, and the point's index in the
 * series' points ordered by weight, spill-only first, then cost and traffic), and each panel's front a path with
 * the id {@code front-P}, for readers and tests. Time O(R log R) for R rows.
 */
public final class FrontFigure implements FigureFile.Drawing {
    private static final int COLUMNS = 3;
    private static final int PANEL_WIDTH = 460;
    private static final int PANEL_HEIGHT = 340;
    /** Wide enough for the note line. */
    private static final int MIN_WIDTH = 720;
    private static final int TITLE_HEIGHT = 34;
    private static final int FOOTER_HEIGHT = 22;
    private static final double SIZE = 8;
    private static final Color FRONT = new Color(0x555555);
    private static final BasicStroke FRONT_STROKE = new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
            BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0);
    private static final Font LABEL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 9);

    /**
     * One plan of the panel.
     *
     * @param weight the case's recompute weight, null for a spill-only case
     */
    public record Point(long cost, long traffic, Double weight) {
    }

    /** A network in a tensor setting at a budget: its points per series (in the figure's series order) and front. */
    public record Panel(String graph, String setting, String budget, Long budgetBytes, List<List<Point>> points,
                        List<Point> front) {
        /** The panel's title, e.g. {@code resnet50:train (activations), M_R = 2.49 MB}. */
        public String title() {
            return graph.substring(graph.lastIndexOf('/') + 1) + " (" + setting + "), " + budget
                    + (budgetBytes == null || budget.equals(Long.toString(budgetBytes)) ? ""
                    : " = " + Numbers.bytes(budgetBytes));
        }
    }

    private final List<Panel> panels;
    private final List<String> series;
    private final int withoutPlan;
    private final String title;
    private final int legendHeight;

    /**
     * The figure of the rows; each filter null or empty keeps everything.
     *
     * @throws IllegalArgumentException when a filter names something the rows do not hold, or no row has a plan
     */
    public FrontFigure(List<FinishedCase> rows, List<String> settings, List<String> graphs, List<String> budgets,
                       List<String> planners, String title) {
        List<FinishedCase> kept = new ArrayList<>(rows);
        kept = ResultCells.filter(kept, settings, FinishedCase::setting, "setting");
        kept = ResultCells.filter(kept, graphs, FinishedCase::graph, "graph");
        kept = ResultCells.filter(kept, budgets, FinishedCase::budget, "budget");
        kept = ResultCells.filter(kept, planners, FinishedCase::planner, "planner");
        List<FinishedCase> planned = kept.stream().filter(r -> r.trafficNonCompulsory() != null).toList();
        if (planned.isEmpty()) {
            throw new IllegalArgumentException("no case of the selection has a plan: nothing to draw");
        }
        this.withoutPlan = kept.size() - planned.size();
        this.title = title;
        Map<String, Set<String>> solvers = new HashMap<>();
        planned.forEach(r -> solvers.computeIfAbsent(r.planner(), k -> new LinkedHashSet<>()).add(r.solver()));
        Map<String, String> plannerOf = new HashMap<>();
        planned.forEach(r -> plannerOf.put(label(r, solvers), r.planner()));
        List<String> names = new ArrayList<>(new TreeSet<>(plannerOf.keySet()));
        names.sort(Comparator.comparing((String s) -> orderIn(planners, plannerOf.get(s)))
                .thenComparing(s -> planners == null && plannerOf.get(s).startsWith("cosma")));
        this.series = List.copyOf(names);

        Map<List<String>, List<FinishedCase>> byPanel = new LinkedHashMap<>();
        planned.stream().sorted(Comparator.comparing((FinishedCase r) -> orderIn(graphs, r.graph()))
                        .thenComparing(FinishedCase::graph)
                        .thenComparing(r -> r.setting().equals("activations") ? 0 : 1)
                        .thenComparing(FinishedCase::setting)
                        .thenComparingDouble(r -> ResultCells.budgetRank(r.budget()))
                        .thenComparing(FinishedCase::budget))
                .forEach(r -> byPanel.computeIfAbsent(List.of(r.graph(), r.setting(), r.budget()),
                        k -> new ArrayList<>()).add(r));
        List<Panel> out = new ArrayList<>();
        Comparator<Point> pointOrder = Comparator.comparing((Point p) -> p.weight() != null)
                .thenComparing(p -> p.weight() == null ? 0 : p.weight())
                .thenComparingLong(Point::cost).thenComparingLong(Point::traffic);
        byPanel.forEach((key, panelRows) -> {
            List<List<Point>> points = new ArrayList<>();
            List<Point> all = new ArrayList<>();
            for (String s : series) {
                List<Point> mine = panelRows.stream().filter(r -> label(r, solvers).equals(s))
                        .map(r -> new Point(r.recomputeCost() == null ? 0 : r.recomputeCost(),
                                r.trafficNonCompulsory(), r.recomputeWeight()))
                        .sorted(pointOrder).toList();
                points.add(mine);
                all.addAll(mine);
            }
            out.add(new Panel(key.get(0), key.get(1), key.get(2), panelRows.get(0).budgetBytes(), points,
                    front(all)));
        });
        this.panels = List.copyOf(out);
        this.legendHeight = 24 + 18 * legendRows();
    }

    /**
     * The legend's rows at the figure's width, estimated from its labels (about 6 pixels a character at 12 points,
     * plus the marker and the gap), so that the note line sits under the legend at any number of series.
     */
    private int legendRows() {
        int available = width() - 40;
        int rows = 1;
        int used = 0;
        List<String> items = new ArrayList<>(series);
        items.add("Pareto front");
        for (String item : items) {
            int w = 6 * item.length() + 30;
            if (used > 0 && used + w > available) {
                rows++;
                used = 0;
            }
            used += w;
        }
        return rows;
    }

    /** What the figure shows, in a few words: panels, planners and plans. */
    public String summary() {
        int points = panels().stream().mapToInt(p -> p.points().stream().mapToInt(List::size).sum()).sum();
        return panels().size() + " panel" + (panels().size() == 1 ? "" : "s") + ", " + series().size() + " planners, "
                + points + " plans";
    }

    public List<Panel> panels() {
        return panels;
    }

    public List<String> series() {
        return series;
    }

    /**
     * The Pareto front of the points, least cost first: the points no other point matches or beats in both
     * recompute cost and traffic (of equal points, one stands for all; its weight is the least among them, spill
     * only first). O(n log n): sorted by cost then traffic, a point is on the front when its traffic is below every
     * traffic before it.
     */
    static List<Point> front(List<Point> points) {
        List<Point> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingLong(Point::cost).thenComparingLong(Point::traffic)
                .thenComparing((Point p) -> p.weight() != null).thenComparing(p -> p.weight() == null ? 0 : p.weight()));
        List<Point> front = new ArrayList<>();
        long best = Long.MAX_VALUE;
        for (Point p : sorted) {
            if (p.traffic() < best) {
                front.add(p);
                best = p.traffic();
            }
        }
        return front;
    }

    @Override
    public int width() {
        return Math.max(MIN_WIDTH, PANEL_WIDTH * Math.min(COLUMNS, panels.size()));
    }

    @Override
    public int height() {
        return TITLE_HEIGHT + rows() * PANEL_HEIGHT + legendHeight + FOOTER_HEIGHT;
    }

    private int rows() {
        return (panels.size() + COLUMNS - 1) / COLUMNS;
    }

    @Override
    public void draw(Graphics2D g2, Rectangle2D area) {
        TrafficFigure.drawTitle(g2, new TextTitle(title, new Font(Font.SANS_SERIF, Font.BOLD, 15)),
                new Rectangle2D.Double(area.getX(), area.getY() + 6, area.getWidth(), TITLE_HEIGHT - 6));
        XYPlot first = null;
        for (int p = 0; p < panels.size(); p++) {
            XYPlot plot = plot(p);
            if (first == null) {
                first = plot;
            }
            JFreeChart chart = new JFreeChart(panels.get(p).title(), new Font(Font.SANS_SERIF, Font.BOLD, 12), plot,
                    false);
            chart.setBackgroundPaint(Color.WHITE);
            chart.setBorderVisible(false);
            double x = area.getX() + (p % COLUMNS) * PANEL_WIDTH;
            double y = area.getY() + TITLE_HEIGHT + (double) (p / COLUMNS) * PANEL_HEIGHT;
            chart.draw(g2, new Rectangle2D.Double(x, y, PANEL_WIDTH, PANEL_HEIGHT));
        }
        double legendTop = area.getY() + TITLE_HEIGHT + rows() * (double) PANEL_HEIGHT;
        LegendTitle legend = new LegendTitle(first);
        legend.setFrame(BlockBorder.NONE);
        legend.setItemFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        Size2D size = legend.arrange(g2, new RectangleConstraint(new Range(0, area.getWidth()),
                new Range(0, legendHeight)));
        legend.draw(g2, new Rectangle2D.Double(area.getX() + (area.getWidth() - size.width) / 2, legendTop + 4,
                size.width, size.height));
        String note = "a point per plan, one per weight λ (bytes per cost unit); labels: the weights on the front"
                + (withoutPlan == 0 ? "" : "; " + withoutPlan + " case" + (withoutPlan == 1 ? "" : "s")
                + " without a plan not drawn");
        TrafficFigure.drawTitle(g2, new TextTitle(note, new Font(Font.SANS_SERIF, Font.PLAIN, 10)),
                new Rectangle2D.Double(area.getX(), legendTop + legendHeight, area.getWidth(), FOOTER_HEIGHT));
    }

    private XYPlot plot(int p) {
        Panel panel = panels.get(p);
        long maxCost = 0;
        long maxTraffic = 0;
        for (List<Point> points : panel.points()) {
            for (Point q : points) {
                maxCost = Math.max(maxCost, q.cost());
                maxTraffic = Math.max(maxTraffic, q.traffic());
            }
        }
        NumberAxis cost = new NumberAxis("recompute cost (cost units)");
        cost.setRange(-0.04 * Math.max(1, maxCost), Math.max(1, maxCost) * 1.12);
        cost.setNumberFormatOverride(new Numbers.TickFormat(false));
        NumberAxis traffic = new NumberAxis("non-compulsory traffic");
        traffic.setRange(-0.04 * Math.max(1, maxTraffic), Math.max(1, maxTraffic) * 1.12);
        traffic.setNumberFormatOverride(new Numbers.TickFormat(true));
        XYPlot plot = new XYPlot(null, cost, traffic, new XYLineAndShapeRenderer());
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        plot.setOutlineVisible(false);
        plot.addAnnotation(new Points(p));
        LegendItemCollection legend = new LegendItemCollection();
        for (int s = 0; s < series.size(); s++) {
            legend.add(new LegendItem(series.get(s), null, null, null, shape(s, 0, 0), TrafficFigure.colour(s)));
        }
        legend.add(new LegendItem("Pareto front", null, null, null, new java.awt.geom.Line2D.Double(-8, 0, 8, 0),
                FRONT_STROKE, FRONT));
        plot.setFixedLegendItems(legend);
        return plot;
    }

    /** Series s's marker centred on (x, y): a circle, square, triangle, diamond or cross, by s. */
    static Shape shape(int s, double x, double y) {
        double h = SIZE / 2;
        return switch (s % 5) {
            case 0 -> new Ellipse2D.Double(x - h, y - h, SIZE, SIZE);
            case 1 -> new Rectangle2D.Double(x - h, y - h, SIZE, SIZE);
            case 2 -> polygon(x, y, new double[] {0, -h, h + 1, h, -h - 1, h});
            case 3 -> polygon(x, y, new double[] {0, -h - 1, h + 1, 0, 0, h + 1, -h - 1, 0});
            default -> polygon(x, y, new double[] {-h, -h / 3, -h / 3, -h / 3, -h / 3, -h, h / 3, -h, h / 3, -h / 3,
                h, -h / 3, h, h / 3, h / 3, h / 3, h / 3, h, -h / 3, h, -h / 3, h / 3, -h, h / 3});
        };
    }

    private static Shape polygon(double x, double y, double[] xy) {
        Path2D.Double path = new Path2D.Double();
        path.moveTo(x + xy[0], y + xy[1]);
        for (int i = 2; i < xy.length; i += 2) {
            path.lineTo(x + xy[i], y + xy[i + 1]);
        }
        path.closePath();
        return path;
    }

    /** Draws a panel's front (under the points), its points and the front's weight labels. */
    private final class Points extends AbstractXYAnnotation {
        private static final long serialVersionUID = 1L;
        private final int panel;

        Points(int panel) {
            this.panel = panel;
        }

        @Override
        public void draw(Graphics2D g2, XYPlot plot, Rectangle2D area, ValueAxis domainAxis, ValueAxis rangeAxis,
                int rendererIndex, PlotRenderingInfo info) {
            Panel p = panels.get(panel);
            Path2D.Double stairs = new Path2D.Double();
            double lastY = 0;
            for (int i = 0; i < p.front().size(); i++) {
                Point q = p.front().get(i);
                double x = domainAxis.valueToJava2D(q.cost(), area, RectangleEdge.BOTTOM);
                double y = rangeAxis.valueToJava2D(q.traffic(), area, RectangleEdge.LEFT);
                if (i == 0) {
                    stairs.moveTo(x, y);
                } else {
                    stairs.lineTo(x, lastY);
                    stairs.lineTo(x, y);
                }
                lastY = y;
            }
            g2.setPaint(FRONT);
            g2.setStroke(FRONT_STROKE);
            g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, "front-" + panel);
            g2.draw(stairs);
            g2.setStroke(new BasicStroke(1));
            for (int s = 0; s < series.size(); s++) {
                List<Point> points = p.points().get(s);
                for (int i = 0; i < points.size(); i++) {
                    Point q = points.get(i);
                    g2.setPaint(TrafficFigure.colour(s));
                    g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, "point-" + panel + "-" + s + "-" + i);
                    g2.fill(shape(s, domainAxis.valueToJava2D(q.cost(), area, RectangleEdge.BOTTOM),
                            rangeAxis.valueToJava2D(q.traffic(), area, RectangleEdge.LEFT)));
                }
            }
            g2.setFont(LABEL_FONT);
            g2.setPaint(Color.DARK_GRAY);
            java.awt.FontMetrics metrics = g2.getFontMetrics();
            for (int i = 0; i < p.front().size(); i++) {
                Point q = p.front().get(i);
                String label = weights(p, q);
                if (!label.isEmpty()) {
                    double x = domainAxis.valueToJava2D(q.cost(), area, RectangleEdge.BOTTOM);
                    double width = metrics.stringWidth(label);
                    // Right of the point, or left of it where the label would leave the plot.
                    double left = x + 6 + width <= area.getMaxX() ? x + 6 : x - 6 - width;
                    g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, "label-" + panel + "-" + i);
                    g2.drawString(label, (float) left,
                            (float) rangeAxis.valueToJava2D(q.traffic(), area, RectangleEdge.LEFT) - 6);
                }
            }
        }
    }

    /**
     * The weights of the panel's points at a front point, to three significant digits: {@code λ 0.01} or
     * {@code λ 0.01, 0.1}, from the least to the greatest {@code λ 0.00195 … 8} when more; empty when every point
     * there is spill-only.
     */
    static String weights(Panel p, Point at) {
        Set<Double> found = new TreeSet<>();
        for (List<Point> points : p.points()) {
            for (Point q : points) {
                if (q.cost() == at.cost() && q.traffic() == at.traffic() && q.weight() != null) {
                    found.add(q.weight());
                }
            }
        }
        List<String> text = found.stream().map(w -> new java.math.BigDecimal(w).round(new java.math.MathContext(3))
                .stripTrailingZeros().toPlainString()).toList();
        return text.isEmpty() ? "" : "λ " + (text.size() <= 2 ? String.join(", ", text)
                : text.get(0) + " … " + text.get(text.size() - 1));
    }

    private static String label(FinishedCase r, Map<String, Set<String>> solvers) {
        return solvers.get(r.planner()).size() > 1 ? r.planner() + " " + (r.solver().isEmpty() ? "(no solver)"
                : r.solver()) : r.planner();
    }

    private static int orderIn(List<String> order, String value) {
        if (order == null) {
            return 0;
        }
        int i = order.indexOf(value);
        return i < 0 ? order.size() : i;
    }
}
