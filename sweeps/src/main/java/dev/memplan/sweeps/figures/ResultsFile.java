package dev.memplan.sweeps.figures;

import dev.memplan.model.io.FormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Reads sweep results (RESULTS-SCHEMA.md) from the DuckDB database of {@code memplan sweep} (table
 * {@code results}) or from its CSV export ({@code memplan sweep export DB --csv}). A file whose name ends in
 * {@code .csv} is read as CSV (RFC 4180: a header row, fields quoted with {@code "} where they hold a comma, a
 * quote or a line break; an empty field is NULL); anything else is opened read-only as a DuckDB database.
 * Columns are found by name, so extra columns and another column order are accepted; the columns of
 * {@link #COLUMNS} must be there, those of {@link #OPTIONAL} are read when present (results from before them read as
 * NULL). Errors are {@link FormatException}s naming the file, the place (line and
 * column, or table and column) and the problem. Time and memory O(file size).
 */
public final class ResultsFile {
    /** The columns the figures and tables read. */
    public static final List<String> COLUMNS = List.of("graph", "setting", "budget", "budget_bytes", "planner",
            "solver", "time_limit", "repeat", "status", "traffic_non_compulsory", "bound", "gap", "seconds", "error");
    /** The columns read when present: what recomputation added (docs/sweeps.md, "Results"). */
    public static final List<String> OPTIONAL = List.of("recompute_cost", "recompute_weight");

    private ResultsFile() {
    }

    /** Every row of the file, in file order (a database: ordered by graph, setting, budget, planner); never empty. */
    public static List<FinishedCase> read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UncheckedIOException("no such file: " + file, new java.io.FileNotFoundException(file.toString()));
        }
        boolean csv = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv");
        List<FinishedCase> rows = csv ? readCsv(file) : readDuckDb(file);
        if (rows.isEmpty()) {
            throw new FormatException(file.toString(), csv ? "line 2" : "table results", "no results (no case has finished)");
        }
        return rows;
    }

    private static List<FinishedCase> readCsv(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new FormatException(file.toString(), "file", "not UTF-8 text");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + dev.memplan.model.io.AtomicFiles.reason(e), e);
        }
        List<CsvRecord> records = CsvRecord.parse(text, file.toString());
        if (records.isEmpty()) {
            throw new FormatException(file.toString(), "line 1", "empty file: expected a header row with the columns "
                    + String.join(",", COLUMNS));
        }
        List<String> header = records.get(0).fields();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            index.putIfAbsent(header.get(i).trim(), i);
        }
        Set<String> missing = new LinkedHashSet<>(COLUMNS);
        missing.removeAll(index.keySet());
        if (!missing.isEmpty()) {
            throw new FormatException(file.toString(), "line 1", "missing column" + (missing.size() == 1 ? " " : "s ")
                    + String.join(", ", missing) + " (a results CSV has the columns of RESULTS-SCHEMA.md)");
        }
        List<FinishedCase> rows = new ArrayList<>();
        for (CsvRecord r : records.subList(1, records.size())) {
            if (r.fields().size() != header.size()) {
                throw new FormatException(file.toString(), "line " + r.line(), r.fields().size() + " fields, the header has "
                        + header.size());
            }
            rows.add(row(column -> {
                Integer at = index.get(column);
                String v = at == null ? null : r.fields().get(at);
                return v == null || v.isEmpty() ? null : v;
            }, file.toString(), "line " + r.line()));
        }
        return rows;
    }

    private static List<FinishedCase> readDuckDb(Path file) {
        String why = dev.memplan.sweeps.ResultsDb.whyNotDuckDb(file);
        if (why != null) {
            // DuckDB would open a text file as an empty in-memory database; say what the file is instead.
            throw new FormatException(file.toString(), "file", "cannot read it as a DuckDB database: " + why
                    + " (a results CSV export must be named .csv)");
        }
        Properties p = new Properties();
        p.setProperty("duckdb.read_only", "true");
        String name = file.toString();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), p);
             Statement s = c.createStatement()) {
            Set<String> present = new LinkedHashSet<>();
            try (ResultSet cols = s.executeQuery(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = 'results'")) {
                while (cols.next()) {
                    present.add(cols.getString(1));
                }
            }
            if (present.isEmpty()) {
                throw new FormatException(name, "table results", "no such table (is this a memplan sweep database?)");
            }
            Set<String> missing = new LinkedHashSet<>(COLUMNS);
            missing.removeAll(present);
            if (!missing.isEmpty()) {
                throw new FormatException(name, "table results", "missing column" + (missing.size() == 1 ? " " : "s ")
                        + String.join(", ", missing));
            }
            List<FinishedCase> rows = new ArrayList<>();
            List<String> read = new ArrayList<>(COLUMNS);
            OPTIONAL.stream().filter(present::contains).forEach(read::add);
            String select = "SELECT " + String.join(", ", read.stream().map(col -> "CAST(\"" + col + "\" AS VARCHAR)").toList())
                    + " FROM results ORDER BY graph, setting, budget_bytes, planner, "
                    + (present.contains("recompute_weight") ? "recompute_weight, " : "") + "solver, time_limit, repeat";
            try (ResultSet rs = s.executeQuery(select)) {
                int n = 0;
                while (rs.next()) {
                    n++;
                    Map<String, String> values = new HashMap<>();
                    for (int i = 0; i < read.size(); i++) {
                        values.put(read.get(i), rs.getString(i + 1));
                    }
                    rows.add(row(values::get, name, "table results, row " + n));
                }
            }
            return rows;
        } catch (SQLException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            if (message.contains("Could not set lock")) {
                // DuckDB: a process writing a database excludes every other process, readers included.
                throw new FormatException(name, "file", "another process holds the database open (a running sweep?); "
                        + "plot after it finishes, or from a CSV export");
            }
            throw new FormatException(name, "file", "cannot read it as a DuckDB database (" + message
                    + "); give a .csv name for a CSV export");
        }
    }

    private interface Fields {
        String get(String column);
    }

    private static FinishedCase row(Fields f, String file, String where) {
        String statusText = required(f, "status", file, where);
        FinishedCase.Status status;
        try {
            status = FinishedCase.Status.valueOf(statusText.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new FormatException(file, where + ", column status", "unknown status '" + statusText
                    + "' (expected OPTIMAL, FEASIBLE, HEURISTIC, UNKNOWN, INFEASIBLE or ERROR)");
        }
        return new FinishedCase(required(f, "graph", file, where), required(f, "setting", file, where),
                required(f, "budget", file, where), longOrNull(f, "budget_bytes", file, where),
                required(f, "planner", file, where), f.get("solver"), doubleOrNull(f, "time_limit", file, where),
                intOrNull(f, "repeat", file, where), status, longOrNull(f, "traffic_non_compulsory", file, where),
                longOrNull(f, "bound", file, where), doubleOrNull(f, "gap", file, where),
                doubleOrNull(f, "seconds", file, where), f.get("error"), longOrNull(f, "recompute_cost", file, where),
                doubleOrNull(f, "recompute_weight", file, where));
    }

    private static String required(Fields f, String column, String file, String where) {
        String v = f.get(column);
        if (v == null || v.isBlank()) {
            throw new FormatException(file, where + ", column " + column, "empty; every row needs a " + column);
        }
        return v;
    }

    private static Long longOrNull(Fields f, String column, String file, String where) {
        String v = f.get(column);
        try {
            return v == null ? null : Long.valueOf(v.trim());
        } catch (NumberFormatException e) {
            throw new FormatException(file, where + ", column " + column, "not an integer: '" + v + "'");
        }
    }

    private static Integer intOrNull(Fields f, String column, String file, String where) {
        Long v = longOrNull(f, column, file, where);
        if (v != null && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
            throw new FormatException(file, where + ", column " + column, "out of range: " + v);
        }
        return v == null ? null : v.intValue();
    }

    private static Double doubleOrNull(Fields f, String column, String file, String where) {
        String v = f.get(column);
        try {
            return v == null ? null : Double.valueOf(v.trim());
        } catch (NumberFormatException e) {
            throw new FormatException(file, where + ", column " + column, "not a number: '" + v + "'");
        }
    }

    /** One CSV record and the line it starts on. */
    private record CsvRecord(int line, List<String> fields) {

        /** RFC 4180 records; blank lines between records are skipped. */
        static List<CsvRecord> parse(String text, String file) {
            List<CsvRecord> out = new ArrayList<>();
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            int line = 1;
            int startLine = 1;
            boolean quoted = false;
            boolean any = false;
            int i = text.startsWith("\uFEFF") ? 1 : 0;
            for (; i < text.length(); i++) {
                char c = text.charAt(i);
                if (quoted) {
                    if (c == '"') {
                        if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                            field.append('"');
                            i++;
                        } else {
                            quoted = false;
                        }
                    } else {
                        if (c == '\n') {
                            line++;
                        }
                        field.append(c);
                    }
                } else if (c == '"' && field.length() == 0) {
                    quoted = true;
                    any = true;
                } else if (c == ',') {
                    fields.add(field.toString());
                    field.setLength(0);
                    any = true;
                } else if (c == '\n' || c == '\r') {
                    if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                        i++;
                    }
                    if (any || field.length() > 0) {
                        fields.add(field.toString());
                        out.add(new CsvRecord(startLine, List.copyOf(fields)));
                    }
                    fields.clear();
                    field.setLength(0);
                    any = false;
                    line++;
                    startLine = line;
                } else {
                    field.append(c);
                    any = true;
                }
            }
            if (quoted) {
                throw new FormatException(file, "line " + startLine, "a quoted field is not closed");
            }
            if (any || field.length() > 0) {
                fields.add(field.toString());
                out.add(new CsvRecord(startLine, List.copyOf(fields)));
            }
            return out;
        }
    }
}
