package dev.memplan.sweeps.figures;

import dev.memplan.model.io.AtomicFiles;
import dev.memplan.model.io.PrintableText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A table of result rows: printed with left-aligned columns for a terminal, or written as CSV or Markdown (whole or
 * not at all, {@link AtomicFiles}). Cells from files are shown escaped and shortened ({@link PrintableText#clean}).
 */
public final class TextTable {
    private final List<String[]> rows = new ArrayList<>();
    private final String[] header;

    public TextTable(String... header) {
        this.header = header;
    }

    /** A table of {@code lines}: the header first, then the rows. */
    public static TextTable of(List<String[]> lines) {
        TextTable t = new TextTable(lines.get(0));
        lines.subList(1, lines.size()).forEach(t::row);
        return t;
    }

    /** Adds a row, cut or padded (null cells) to the header's width. */
    public void row(String... cells) {
        String[] row = Arrays.copyOf(cells, header.length);
        for (int i = 0; i < row.length; i++) {
            row[i] = row[i] == null ? null : PrintableText.clean(row[i]);
        }
        rows.add(row);
    }

    /** Prints the header and the rows, each column as wide as its widest cell plus two spaces. */
    public void print(PrintWriter out) {
        print(out, true);
    }

    /** Prints the rows alone (a report of label and value rows). */
    public void printWithoutHeader(PrintWriter out) {
        print(out, false);
    }

    /** The table as CSV text, header first; a cell with a comma is quoted. */
    public String csv() {
        StringBuilder sb = new StringBuilder(String.join(",", header)).append('\n');
        for (String[] r : rows) {
            sb.append(String.join(",", Arrays.stream(r).map(c -> c == null ? "" : c.contains(",") ? "\"" + c + "\"" : c)
                    .toArray(String[]::new))).append('\n');
        }
        return sb.toString();
    }

    /** The table as Markdown, a {@code |} in a cell escaped. */
    public String markdown() {
        StringBuilder sb = new StringBuilder("| " + String.join(" | ", header) + " |\n|");
        sb.append("---|".repeat(header.length)).append('\n');
        for (String[] r : rows) {
            sb.append("| ").append(String.join(" | ", Arrays.stream(r).map(c -> c == null ? "" : c.replace("|", "\\|"))
                    .toArray(String[]::new))).append(" |\n");
        }
        return sb.toString();
    }

    /** Writes the CSV to {@code csv} and, unless null, the Markdown to {@code markdown}. */
    public void write(Path csv, Path markdown) {
        AtomicFiles.write(csv, csv());
        if (markdown != null) {
            AtomicFiles.write(markdown, markdown());
        }
    }

    /**
     * Where a bench hands its rows: each is added, printed at once to {@code live} (none when null) and the CSV at
     * {@code csv} (and the Markdown, unless null) rewritten, so an interrupted run keeps what it finished.
     */
    public Consumer<String[]> sink(Path csv, Path markdown, PrintWriter live) {
        return cells -> {
            row(cells);
            if (live != null) {
                live.println(String.join("  ", rows.get(rows.size() - 1)));
                live.flush();
            }
            write(csv, markdown);
        };
    }

    /**
     * Prints {@code header}, then each row {@code bench} hands to its sink as it finishes (the CSV rewritten each
     * time), then the whole table after a blank line.
     */
    public static void live(String[] header, Path csv, PrintWriter out, Consumer<Consumer<String[]>> bench) {
        TextTable table = new TextTable(header);
        out.println(String.join("  ", header));
        bench.accept(table.sink(csv, null, out));
        out.println();
        table.print(out);
    }

    private void print(PrintWriter out, boolean withHeader) {
        List<String[]> all = new ArrayList<>();
        if (withHeader) {
            all.add(header);
        }
        all.addAll(rows);
        int[] width = new int[header.length];
        for (String[] r : all) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i] == null ? 0 : r[i].length());
            }
        }
        for (String[] r : all) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                String cell = r[i] == null ? "" : r[i];
                sb.append(cell);
                if (i < r.length - 1) {
                    sb.append(" ".repeat(width[i] - cell.length() + 2));
                }
            }
            out.println(sb.toString().stripTrailing());
        }
    }
}
