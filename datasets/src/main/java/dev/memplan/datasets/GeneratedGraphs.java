package dev.memplan.datasets;

import dev.memplan.model.Graph;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seeded generated graphs by name, so that every command (and every sweep) can name one like a zoo network:
 * {@code gen:layered:N[:SEED]} is {@link RandomGraphs#layered} with N operators (each reading up to 3 of the last
 * 4 outputs, sizes up to 4 KiB, one parameter per operator), {@code gen:cells:N[:SEED]} a stack of
 * {@link RandomGraphs#cells NAS-like cells} of 5 nodes (16 operators a cell, a reduction every third cell, units of
 * 1 KiB) with about N operators. The seed defaults to 1.
 */
public final class GeneratedGraphs {
    /** The most operators a generated graph may have (a 20,000-operator graph is the largest the issues ask for). */
    public static final int MAX_OPERATORS = 1_000_000;

    private static final Pattern NAME = Pattern.compile("gen:(layered|cells):(\\d{1,9})(?::(-?\\d{1,18}))?");
    private static final int NODES_PER_CELL = 5;
    private static final int OPERATORS_PER_CELL = 3 * NODES_PER_CELL + 1;

    private GeneratedGraphs() {
    }

    /** Whether the text asks for a generated graph (starts with {@code gen:}). */
    public static boolean isGeneratedName(String text) {
        return text.startsWith("gen:");
    }

    /** Whether the text is a well-formed generated graph name (the form {@link #graph} accepts, sizes aside). */
    public static boolean isWellFormedName(String text) {
        return NAME.matcher(text).matches();
    }

    /**
     * The graph of that name.
     *
     * @throws IllegalArgumentException naming the expected form when the name is malformed or too large
     */
    public static Graph graph(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a generated graph name: use gen:layered:N[:SEED] "
                    + "or gen:cells:N[:SEED] with N operators (1.." + MAX_OPERATORS + ")");
        }
        int operators = Integer.parseInt(m.group(2));
        if (operators < 1 || operators > MAX_OPERATORS) {
            throw new IllegalArgumentException("'" + name + "': the number of operators must be 1.." + MAX_OPERATORS);
        }
        long seed = m.group(3) == null ? 1 : Long.parseLong(m.group(3));
        return m.group(1).equals("layered")
                ? RandomGraphs.layered(seed, operators, 3, 4, 4096, true)
                : RandomGraphs.cells(seed, Math.max(1, (operators - 2) / OPERATORS_PER_CELL), NODES_PER_CELL, 3, 1024,
                        true);
    }
}
