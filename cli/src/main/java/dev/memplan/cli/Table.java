package dev.memplan.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A plain-text table with left-aligned columns, for terminal output. */
final class Table {
    private final List<String[]> rows = new ArrayList<>();
    private final String[] header;

    Table(String... header) {
        this.header = header;
    }

    /** Adds a row; names from files are shown escaped and shortened ({@link Messages#clean}). */
    /** A table of {@code lines}: the header first, then the rows. */
    static Table of(List<String[]> lines) {
        Table t = new Table(lines.get(0));
        lines.subList(1, lines.size()).forEach(t::row);
        return t;
    }

    void row(String... cells) {
        String[] row = Arrays.copyOf(cells, header.length);
        for (int i = 0; i < row.length; i++) {
            row[i] = row[i] == null ? null : Messages.clean(row[i]);
        }
        rows.add(row);
    }

    void print(PrintWriter out) {
        print(out, true);
    }

    /** The table as CSV (header first), written whole or not at all. */
    void writeCsv(java.nio.file.Path file) {
        dev.memplan.model.io.AtomicFiles.write(file, csv());
    }

    /** The table as CSV text, header first. */
    String csv() {
        StringBuilder sb = new StringBuilder(String.join(",", header)).append('\n');
        for (String[] r : rows) {
            sb.append(String.join(",", java.util.Arrays.stream(r).map(c -> c == null ? "" : c.contains(",") ? "\"" + c + "\"" : c)
                    .toArray(String[]::new))).append('\n');
        }
        return sb.toString();
    }

    /** The table as a Markdown table, written whole or not at all. */
    void writeMarkdown(java.nio.file.Path file) {
        StringBuilder sb = new StringBuilder("| " + String.join(" | ", header) + " |\n|");
        sb.append("---|".repeat(header.length)).append('\n');
        for (String[] r : rows) {
            sb.append("| ").append(String.join(" | ", Arrays.stream(r).map(c -> c == null ? "" : c.replace("|", "\\|"))
                    .toArray(String[]::new))).append(" |\n");
        }
        dev.memplan.model.io.AtomicFiles.write(file, sb.toString());
    }

    /**
     * Where a bench hands its rows: each is added, printed at once to {@code live} (none when null) and the CSV at
     * {@code csv} rewritten, so an interrupted run keeps what it finished.
     */
    java.util.function.Consumer<String[]> sink(java.nio.file.Path csv, PrintWriter live) {
        return cells -> {
            row(cells);
            if (live != null) {
                live.println(String.join("  ", lastRow()));
                live.flush();
            }
            writeCsv(csv);
        };
    }

    /** The last row added. */
    String[] lastRow() {
        return rows.get(rows.size() - 1).clone();
    }

    void printWithoutHeader(PrintWriter out) {
        print(out, false);
    }

    private void print(PrintWriter out, boolean withHeader) {
        int[] width = new int[header.length];
        List<String[]> all = new ArrayList<>();
        if (withHeader) {
            all.add(header);
        }
        all.addAll(rows);
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
