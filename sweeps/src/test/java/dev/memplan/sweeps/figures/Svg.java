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

    static double num(Element e, String attribute) {
        return Double.parseDouble(e.getAttribute(attribute));
    }

    /** The text an element (or its descendants) holds. */
    static String text(Element e) {
        return e.getTextContent();
    }
}
