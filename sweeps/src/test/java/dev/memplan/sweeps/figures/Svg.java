package dev.memplan.sweeps.figures;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** An SVG document parsed back with the JDK's XML parser, to test what a figure shows. */
final class Svg {
    final Document document;

    Svg(String text) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            // JFreeSVG names the SVG 1.0 DTD; the test must not fetch it.
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            document = f.newDocumentBuilder().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new AssertionError("not well-formed SVG: " + e.getMessage(), e);
        }
    }

    double width() {
        return Double.parseDouble(document.getDocumentElement().getAttribute("width"));
    }

    double height() {
        return Double.parseDouble(document.getDocumentElement().getAttribute("height"));
    }

    /** Every element of a tag. */
    List<Element> all(String tag) {
        NodeList nodes = document.getElementsByTagName(tag);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    /** Elements whose id starts with the prefix, by id, in document order. */
    Map<String, Element> byIdPrefix(String prefix) {
        Map<String, Element> out = new LinkedHashMap<>();
        NodeList nodes = document.getElementsByTagName("*");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (e.getAttribute("id").startsWith(prefix)) {
                out.put(e.getAttribute("id"), e);
            }
        }
        return out;
    }

    /** A rect's geometry: x, y, width, height. */
    static double[] rect(Element e) {
        return new double[] {num(e, "x"), num(e, "y"), num(e, "width"), num(e, "height")};
    }

    /** The fill colour in an element's style ({@code fill:rgb(r,g,b)}), or null. */
    static java.awt.Color fill(Element e) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("fill: ?rgb\\((\\d+),(\\d+),(\\d+)\\)")
                .matcher(e.getAttribute("style"));
        return m.find() ? new java.awt.Color(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3))) : null;
    }

    /**
     * Where a text element's anchor lands on the page: its x and y mapped through the {@code matrix(a,b,c,d,e,f)}
     * transform of the element or its parent group, if any.
     */
    static double[] textAnchor(Element e) {
        Element text = e.getTagName().equals("text") ? e : (Element) e.getElementsByTagName("text").item(0);
        double x = num(text, "x");
        double y = num(text, "y");
        String t = e.getAttribute("transform");
        if (t.isEmpty()) {
            return new double[] {x, y};
        }
        String[] m = t.substring(t.indexOf('(') + 1, t.indexOf(')')).split(",");
        double[] v = new double[6];
        for (int i = 0; i < 6; i++) {
            v[i] = Double.parseDouble(m[i]);
        }
        return new double[] {v[0] * x + v[2] * y + v[4], v[1] * x + v[3] * y + v[5]};
    }

    static double num(Element e, String attribute) {
        return Double.parseDouble(e.getAttribute(attribute));
    }

    /** The text an element (or its descendants) holds. */
    static String text(Element e) {
        return e.getTextContent();
    }
}
