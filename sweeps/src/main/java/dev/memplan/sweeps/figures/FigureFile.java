package dev.memplan.sweeps.figures;

import dev.memplan.model.io.AtomicFiles;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.jfree.svg.SVGGraphics2D;

/**
 * Writes a drawing as SVG (JFreeSVG's {@link SVGGraphics2D}) or PNG (a Java2D image), chosen by the file name's
 * extension; the file is written whole or not at all (temporary file, then a move).
 */
public final class FigureFile {
    /** Something that draws itself into a rectangle of a Graphics2D. */
    public interface Drawing {
        int width();

        int height();

        void draw(Graphics2D g2, Rectangle2D area);
    }

    private FigureFile() {
    }

    /** The image formats, by file extension. */
    public enum Format { SVG, PNG }

    /**
     * The format a file name asks for.
     *
     * @throws IllegalArgumentException when the name ends neither in .svg nor in .png
     */
    public static Format formatOf(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".svg")) {
            return Format.SVG;
        }
        if (name.endsWith(".png")) {
            return Format.PNG;
        }
        throw new IllegalArgumentException(file + ": unknown image format; name the file .svg or .png");
    }

    /** A figure's default file: NAME + {@code suffix} beside {@code file}, NAME its name without its last extension. */
    public static Path beside(Path file, String suffix) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return file.toAbsolutePath().getParent().resolve((dot > 0 ? name.substring(0, dot) : name) + suffix);
    }

    /** Writes the drawing to the file in the format of its extension. */
    public static void write(Drawing drawing, Path file) {
        AtomicFiles.write(file, formatOf(file) == Format.SVG ? svg(drawing).getBytes(java.nio.charset.StandardCharsets.UTF_8)
                : png(drawing));
    }

    /** The drawing as an SVG document. */
    public static String svg(Drawing drawing) {
        headless();
        SVGGraphics2D g2 = new SVGGraphics2D(drawing.width(), drawing.height());
        drawing.draw(g2, new Rectangle2D.Double(0, 0, drawing.width(), drawing.height()));
        return g2.getSVGDocument();
    }

    /** The drawing as PNG bytes, on a white background. */
    public static byte[] png(Drawing drawing) {
        headless();
        BufferedImage image = new BufferedImage(drawing.width(), drawing.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = image.createGraphics();
        try {
            g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g2.setColor(Color.WHITE);
            g2.fillRect(0, 0, drawing.width(), drawing.height());
            drawing.draw(g2, new Rectangle2D.Double(0, 0, drawing.width(), drawing.height()));
        } finally {
            g2.dispose();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Figures are drawn off screen: without this, AWT on a machine with no display may try to open one. */
    private static void headless() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }
}
