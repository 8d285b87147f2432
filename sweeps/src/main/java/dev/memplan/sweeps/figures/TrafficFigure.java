package dev.memplan.sweeps.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.geom.Rectangle2D;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.block.RectangleConstraint;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRendererState;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.Size2D;
import org.jfree.data.Range;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.svg.SVGHints;

/**
 * The COSMA paper's Fig. 3 / Fig. 4 (Li, Gupta, Malik, "COSMA", section V-B): non-compulsory off-chip traffic per
 * planner per budget per network, as grouped bars. One panel per network and tensor setting (a grid, three
 * panels a row), the budgets as groups on each panel's x axis, the planners as series (one colour each, shared
 * legend below). Each panel has its own y axis, linear or logarithmic.
 *
 * <p>Marks: a cell that is not proven optimal carries its status letter above the bar ({@code F} feasible, with its
 * gap when known; {@code H} heuristic; {@code U} unknown, {@code I} infeasible and {@code E} error, which have no
 * bar). A cell with zero traffic has no bar (its height would be zero) and is labelled {@code 0} at the foot of
 * the axis: a logarithmic axis cannot reach zero, so there the foot is the axis' lower end, one decade below the
 * least positive traffic of the panel, and the label is what says "zero".
 *
 * <p>In SVG every bar (a cell with positive traffic) is a {@code rect} with the id {@code bar-P-B-S} (panel, budget and series indexes in the
 * orders of {@link ResultCells}) and every mark a text with the id {@code mark-P-B-S}, for readers and tests.
 */
public final class TrafficFigure implements FigureFile.Drawing {
    /** Okabe and Ito's colour-blind-safe palette; series beyond eight reuse it. */
    static final List<Color> PALETTE = List.of(new Color(0xE69F00), new Color(0x56B4E9), new Color(0x009E73),
            new Color(0x0072B2), new Color(0xD55E00), new Color(0xCC79A7), new Color(0xF0E442), new Color(0x000000));
    static final String NOTE = "marks: F feasible (gap), H heuristic, U unknown (no plan), I infeasible, E error; "
            + "0 = no non-compulsory traffic";
    private static final int COLUMNS = 3;
    /** Wide enough for the note line. */
    private static final int MIN_WIDTH = 640;
    private static final int PANEL_HEIGHT = 280;
    private static final int TITLE_HEIGHT = 34;
    private static final int FOOTER_HEIGHT = 22;
    private static final Font MARK_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 9);

    private final ResultCells cells;
    private final boolean log;
    private final String title;
    private final int panelWidth;
    private final int legendHeight;

    /** What the figure shows, in a few words: panels x budgets x planners. */
    public String summary() {
        return cells.panels().size() + " panels x " + cells.budgets().size() + " budgets x " + cells.series().size()
                + " planners";
    }

    /** A figure of the cells; {@code log} draws logarithmic y axes. */
    public TrafficFigure(ResultCells cells, boolean log, String title) {
        this.cells = cells;
        this.log = log;
        this.title = title;
        int series = cells.series().size();
        this.panelWidth = Math.max(300, 110 + cells.budgets().size() * (series * 14 + 26));
        this.legendHeight = 24 + 18 * ((series + 2) / 3);
    }

    @Override
    public int width() {
        return Math.max(MIN_WIDTH, panelWidth * Math.min(COLUMNS, cells.panels().size()));
    }

    @Override
    public int height() {
        int rows = (cells.panels().size() + COLUMNS - 1) / COLUMNS;
        return TITLE_HEIGHT + rows * PANEL_HEIGHT + legendHeight + FOOTER_HEIGHT;
    }

    /** The colour of a series. */
    public static Color colour(int series) {
        return PALETTE.get(series % PALETTE.size());
    }

    @Override
    public void draw(Graphics2D g2, Rectangle2D area) {
        drawTitle(g2, new TextTitle(title, new Font(Font.SANS_SERIF, Font.BOLD, 15)),
                new Rectangle2D.Double(area.getX(), area.getY() + 6, area.getWidth(), TITLE_HEIGHT - 6));
        CategoryPlot first = null;
        List<ResultCells.Panel> panels = cells.panels();
        for (int p = 0; p < panels.size(); p++) {
            CategoryPlot plot = plot(p);
            if (first == null) {
                first = plot;
            }
            JFreeChart chart = new JFreeChart(panels.get(p).title(), new Font(Font.SANS_SERIF, Font.BOLD, 12), plot, false);
            chart.setBackgroundPaint(Color.WHITE);
            chart.setBorderVisible(false);
            double x = area.getX() + (p % COLUMNS) * panelWidth;
            double y = area.getY() + TITLE_HEIGHT + (double) (p / COLUMNS) * PANEL_HEIGHT;
            chart.draw(g2, new Rectangle2D.Double(x, y, panelWidth, PANEL_HEIGHT));
        }
        double legendTop = area.getY() + TITLE_HEIGHT + ((panels.size() + COLUMNS - 1) / COLUMNS) * (double) PANEL_HEIGHT;
        LegendTitle legend = new LegendTitle(first);
        legend.setFrame(BlockBorder.NONE);
        legend.setItemFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        Size2D size = legend.arrange(g2, new RectangleConstraint(new Range(0, area.getWidth()), new Range(0, legendHeight)));
        legend.draw(g2, new Rectangle2D.Double(area.getX() + (area.getWidth() - size.width) / 2, legendTop + 4,
                size.width, size.height));
        drawTitle(g2, new TextTitle(NOTE, new Font(Font.SANS_SERIF, Font.PLAIN, 10)),
                new Rectangle2D.Double(area.getX(), legendTop + legendHeight, area.getWidth(), FOOTER_HEIGHT));
    }

    /** A line of text centred in a box (a title must be arranged before it is drawn). */
    static void drawTitle(Graphics2D g2, TextTitle title, Rectangle2D box) {
        Size2D size = title.arrange(g2, new RectangleConstraint(new Range(0, box.getWidth()), new Range(0, box.getHeight())));
        title.draw(g2, new Rectangle2D.Double(box.getCenterX() - size.width / 2, box.getY(), size.width, size.height));
    }

    private CategoryPlot plot(int p) {
        ResultCells.Panel panel = cells.panels().get(p);
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        long least = Long.MAX_VALUE;
        long most = 0;
        for (String s : cells.series()) {
            for (String b : cells.budgets()) {
                ResultCells.Cell c = cells.cell(panel, b, s);
                Long t = c == null ? null : c.traffic();
                data.addValue(t, s, b);
                if (t != null && t > 0) {
                    least = Math.min(least, t);
                    most = Math.max(most, t);
                }
            }
        }
        CategoryAxis budgets = new CategoryAxis("budget");
        budgets.setCategoryMargin(0.25);
        ValueAxis traffic;
        if (log) {
            LogAxis axis = new LogAxis("non-compulsory traffic");
            double lo = most == 0 ? 1 : Math.pow(10, Math.floor(Math.log10(least)) - 1);
            double hi = most == 0 ? 10 : Math.pow(10, Math.ceil(Math.log10(most) + 0.35));
            axis.setRange(lo, hi);
            axis.setTickUnit(new NumberTickUnit(1));
            axis.setNumberFormatOverride(new Numbers.TickFormat(true));
            traffic = axis;
        } else {
            NumberAxis axis = new NumberAxis("non-compulsory traffic");
            axis.setNumberFormatOverride(new Numbers.TickFormat(true));
            axis.setUpperMargin(0.2);
            if (most == 0) {
                axis.setRange(0, 1);
            }
            traffic = axis;
        }
        CategoryPlot plot = new CategoryPlot(data, budgets, traffic, new Bars(p));
        plot.setOrientation(PlotOrientation.VERTICAL);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        plot.setOutlineVisible(false);
        return plot;
    }

    /** Draws each cell's bar and mark itself, so that zero, missing and marked cells look as documented. */
    private final class Bars extends BarRenderer {
        private static final long serialVersionUID = 1L;
        private final int panel;

        Bars(int panel) {
            this.panel = panel;
            setShadowVisible(false);
            setDrawBarOutline(false);
            setItemMargin(0.05);
            for (int s = 0; s < cells.series().size(); s++) {
                setSeriesPaint(s, colour(s));
            }
        }

        @Override
        public void drawItem(Graphics2D g2, CategoryItemRendererState state, Rectangle2D dataArea, CategoryPlot plot,
                CategoryAxis domainAxis, ValueAxis rangeAxis, CategoryDataset dataset, int row, int column, int pass) {
            ResultCells.Panel p = cells.panels().get(panel);
            String seriesLabel = (String) dataset.getRowKey(row);
            String budget = (String) dataset.getColumnKey(column);
            ResultCells.Cell cell = cells.cell(p, budget, seriesLabel);
            if (cell == null) {
                return;
            }
            int s = cells.series().indexOf(seriesLabel);
            int b = cells.budgets().indexOf(budget);
            String id = panel + "-" + b + "-" + s;
            double x = calculateBarW0(plot, PlotOrientation.VERTICAL, dataArea, domainAxis, state, row, column);
            double width = state.getBarWidth();
            double foot = log ? dataArea.getMaxY() : rangeAxis.valueToJava2D(0, dataArea, RectangleEdge.LEFT);
            double top = foot;
            String mark = cell.mark();
            if (cell.traffic() != null && cell.traffic() > 0) {
                top = rangeAxis.valueToJava2D(cell.traffic(), dataArea, RectangleEdge.LEFT);
                Paint paint = getSeriesPaint(row);
                g2.setPaint(paint);
                g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, "bar-" + id);
                g2.fill(new Rectangle2D.Double(x, Math.min(top, foot), width, Math.abs(foot - top)));
            } else if (cell.traffic() != null) {
                mark = mark.isEmpty() ? "0" : "0 " + mark;
            }
            if (!mark.isEmpty()) {
                g2.setPaint(Color.DARK_GRAY);
                g2.setFont(MARK_FONT);
                g2.setStroke(new BasicStroke(1));
                drawUpwards(g2, mark, x + width / 2, Math.min(top, foot) - 2, "mark-" + id);
            }
        }
    }

    /**
     * Text reading upwards from (x, y), centred on x: rotated by the graphics transform rather than drawn as
     * glyph outlines, so that the SVG holds it as a {@code text} element.
     */
    static void drawUpwards(Graphics2D g2, String text, double x, double y, String id) {
        java.awt.geom.AffineTransform saved = g2.getTransform();
        java.awt.FontMetrics metrics = g2.getFontMetrics();
        g2.rotate(-Math.PI / 2, x, y);
        g2.setRenderingHint(SVGHints.KEY_ELEMENT_ID, id);
        g2.drawString(text, (float) x, (float) (y + (metrics.getAscent() - metrics.getDescent()) / 2.0));
        g2.setTransform(saved);
    }
}
