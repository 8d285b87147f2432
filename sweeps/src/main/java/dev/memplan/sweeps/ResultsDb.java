package dev.memplan.sweeps;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The results database: a DuckDB file with one table, {@code results}, one row per finished case (its columns:
 * {@link #COLUMNS}, described in docs/sweeps.md). DuckDB because it is embedded (no server), ACID with a write-ahead log (a row is inserted in
 * one transaction, so a kill leaves whole rows or none), and exports Parquet and CSV itself ({@code COPY}), which
 * pandas and R read directly. One process writes a database at a time (DuckDB locks the file); engines send every
 * row to the one thread that owns this object.
 */
public final class ResultsDb implements AutoCloseable {
    /** The columns in order, as in docs/sweeps.md and the CSV export. */
    public static final List<String> COLUMNS = List.of("case_key", "spec_hash", "graph", "setting", "budget",
            "budget_bytes", "planner", "solver", "time_limit", "threads", "repeat", "status", "traffic_compulsory",
            "traffic_non_compulsory", "loads", "spills", "bound", "gap", "seconds", "vars", "cons", "peak_footprint",
            "peak_address", "m_r", "m_p", "plan_path", "machine", "memplan_version", "finished_at", "error", "work_limit",
            "work_used", "reproducible", "memplan_commit", "solver_versions", "seed", "recomputes", "recompute_cost",
            "recompute_weight", "objective");

    /**
     * The columns added after the first release, with their types, in the order they came: a database made before
     * them gets them (NULL in its rows) when it is opened to write.
     */
    private static final List<String> ADDED = List.of("work_limit DOUBLE", "work_used DOUBLE", "reproducible BOOLEAN",
            "memplan_commit VARCHAR", "solver_versions VARCHAR", "seed BIGINT", "recomputes BIGINT",
            "recompute_cost BIGINT", "recompute_weight DOUBLE", "objective DOUBLE");

    private static final String CREATE = """
            CREATE TABLE IF NOT EXISTS results (
              case_key VARCHAR PRIMARY KEY, spec_hash VARCHAR, graph VARCHAR, setting VARCHAR, budget VARCHAR,
              budget_bytes BIGINT, planner VARCHAR, solver VARCHAR, time_limit DOUBLE, threads INTEGER,
              "repeat" INTEGER, status VARCHAR, traffic_compulsory BIGINT, traffic_non_compulsory BIGINT,
              loads BIGINT, spills BIGINT, bound BIGINT, gap DOUBLE, seconds DOUBLE, vars BIGINT, cons BIGINT,
              peak_footprint BIGINT, peak_address BIGINT, m_r BIGINT, m_p BIGINT, plan_path VARCHAR,
              machine VARCHAR, memplan_version VARCHAR, finished_at TIMESTAMP, error VARCHAR, work_limit DOUBLE,
              work_used DOUBLE, reproducible BOOLEAN, memplan_commit VARCHAR, solver_versions VARCHAR, seed BIGINT,
              recomputes BIGINT, recompute_cost BIGINT, recompute_weight DOUBLE, objective DOUBLE)""";

    /** The rows' order: by the case's parameters, so that an export is the same whatever order cases finished in. */
    private static final String ORDER = " ORDER BY graph, setting, budget_bytes, budget, planner, recompute_weight, "
            + "solver, time_limit, threads, \"repeat\"";

    private final Path file;
    private final Connection connection;
    private final PreparedStatement insert;

    private ResultsDb(Path file, Connection connection) throws SQLException {
        this(file, connection, true);
    }

    private ResultsDb(Path file, Connection connection, boolean writable) throws SQLException {
        this.file = file;
        this.connection = connection;
        if (writable) {
            try (Statement s = connection.createStatement()) {
                s.execute(CREATE);
                for (String column : ADDED) {
                    s.execute("ALTER TABLE results ADD COLUMN IF NOT EXISTS " + column);
                }
            }
            this.insert = connection.prepareStatement("INSERT INTO results (" + quoted(COLUMNS) + ") VALUES ("
                    + "?, ".repeat(COLUMNS.size() - 1) + "?) ON CONFLICT DO NOTHING");
        } else {
            this.insert = null;
        }
    }

    /**
     * Opens (creating when missing) the database file to write results; null for an in-memory database. An
     * existing file must be a DuckDB database: DuckDB would open any other file (a spec, a CSV) as an empty
     * in-memory database, so a sweep would run every case and store nothing.
     */
    public static ResultsDb open(Path file) {
        if (file != null) {
            requireDuckDb(file, true);
        }
        try {
            if (file != null && file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            Connection c = DriverManager.getConnection("jdbc:duckdb:" + (file == null ? "" : file.toAbsolutePath()));
            return new ResultsDb(file, c);
        } catch (SQLException | IOException e) {
            throw new SweepException("cannot open the results database " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens an existing results database read-only (export, figures): it must be a DuckDB file with a
     * {@code results} table; nothing is created or changed.
     */
    public static ResultsDb openReadOnly(Path file) {
        requireDuckDb(file, false);
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        Connection c;
        try {
            c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), readOnly);
        } catch (SQLException e) {
            throw new SweepException("cannot open the results database " + file + ": " + e.getMessage(), e);
        }
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT count(*) FROM information_schema.tables WHERE table_name = 'results'")) {
            r.next();
            if (r.getLong(1) == 0) {
                c.close();
                throw new SweepException(file + " is a DuckDB database without a 'results' table: not a memplan "
                        + "results database");
            }
            return new ResultsDb(file, c, false);
        } catch (SQLException e) {
            throw new SweepException("cannot read the results database " + file + ": " + e.getMessage(), e);
        }
    }

    /** DuckDB's magic bytes, at offset 8 of every database file (after a checksum). */
    private static final byte[] MAGIC = {'D', 'U', 'C', 'K'};

    /**
     * Fails unless {@code file} is a DuckDB database file, judged by its header, not its name; a missing file is
     * accepted when {@code mayCreate}.
     */
    public static void requireDuckDb(Path file, boolean mayCreate) {
        if (!Files.exists(file)) {
            if (mayCreate) {
                return;
            }
            throw new SweepException("no results database " + file + " (no such file)");
        }
        String why = whyNotDuckDb(file);
        if (why != null) {
            throw new SweepException(file + " is not a DuckDB database (" + why + (mayCreate
                    ? "): refusing to use it as the results database; name a new file or an existing results database"
                    : "): not a results database"));
        }
    }

    /** Null when the existing {@code file} starts with DuckDB's header, else why it is not a DuckDB database. */
    public static String whyNotDuckDb(Path file) {
        if (!Files.isRegularFile(file)) {
            return Files.isDirectory(file) ? "it is a folder" : "it is not a regular file";
        }
        byte[] head = new byte[12];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            return "cannot read it: " + dev.memplan.model.io.AtomicFiles.reason(e);
        }
        if (n == 0) {
            return "it is empty";
        }
        return n < head.length || !Arrays.equals(Arrays.copyOfRange(head, 8, 12), MAGIC)
                ? "its header is not DuckDB's" : null;
    }

    /** The keys of the cases already in the database. */
    public Set<String> finishedKeys() {
        Set<String> keys = new HashSet<>();
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("SELECT case_key FROM results")) {
            while (r.next()) {
                keys.add(r.getString(1));
            }
        } catch (SQLException e) {
            throw failure("read", e);
        }
        return keys;
    }

    /** Inserts one row in its own transaction (autocommit); a row whose key is present is ignored. */
    public void insert(ResultRow row) {
        if (insert == null) {
            throw new IllegalStateException("the results database " + file + " was opened read-only");
        }
        try {
            int i = 1;
            insert.setString(i++, row.caseKey());
            insert.setString(i++, row.specHash());
            insert.setString(i++, row.graph());
            insert.setString(i++, row.setting());
            insert.setString(i++, row.budget());
            setLong(i++, row.budgetBytes());
            insert.setString(i++, row.planner());
            insert.setString(i++, row.solver());
            setDouble(i++, row.timeLimit());
            insert.setInt(i++, row.threads());
            insert.setInt(i++, row.repeat());
            insert.setString(i++, row.status());
            setLong(i++, row.trafficCompulsory());
            setLong(i++, row.trafficNonCompulsory());
            setLong(i++, row.loads());
            setLong(i++, row.spills());
            setLong(i++, row.bound());
            setDouble(i++, row.gap());
            insert.setDouble(i++, row.seconds());
            setLong(i++, row.vars());
            setLong(i++, row.cons());
            setLong(i++, row.peakFootprint());
            setLong(i++, row.peakAddress());
            setLong(i++, row.mR());
            setLong(i++, row.mP());
            insert.setString(i++, row.planPath());
            insert.setString(i++, row.machine());
            insert.setString(i++, row.memplanVersion());
            insert.setTimestamp(i++, Timestamp.from(row.finishedAt()));
            insert.setString(i++, row.error());
            setDouble(i++, row.workLimit());
            setDouble(i++, row.workUsed());
            if (row.reproducible() == null) {
                insert.setNull(i++, Types.BOOLEAN);
            } else {
                insert.setBoolean(i++, row.reproducible());
            }
            insert.setString(i++, row.memplanCommit());
            insert.setString(i++, row.solverVersions());
            setLong(i++, row.seed());
            setLong(i++, row.recomputes());
            setLong(i++, row.recomputeCost());
            setDouble(i++, row.recomputeWeight());
            setDouble(i, row.objective());
            insert.executeUpdate();
        } catch (SQLException e) {
            throw failure("write to", e);
        }
    }

    private void setLong(int i, Long v) throws SQLException {
        if (v == null) {
            insert.setNull(i, Types.BIGINT);
        } else {
            insert.setLong(i, v);
        }
    }

    private void setDouble(int i, Double v) throws SQLException {
        if (v == null) {
            insert.setNull(i, Types.DOUBLE);
        } else {
            insert.setDouble(i, v);
        }
    }

    /** Every row, ordered by graph, setting, budget bytes, planner, solver, time limit, threads, repeat. */
    public List<ResultRow> rows() {
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("SELECT " + selectList()
                + " FROM results" + ORDER)) {
            java.util.ArrayList<ResultRow> out = new java.util.ArrayList<>();
            while (r.next()) {
                out.add(new ResultRow(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getString(5),
                        (Long) r.getObject(6, Long.class), r.getString(7), r.getString(8),
                        r.getObject(9, Double.class), r.getInt(10), r.getInt(11), r.getString(12),
                        r.getObject(13, Long.class), r.getObject(14, Long.class), r.getObject(15, Long.class),
                        r.getObject(16, Long.class), r.getObject(17, Long.class), r.getObject(18, Double.class),
                        r.getDouble(19), r.getObject(20, Long.class), r.getObject(21, Long.class),
                        r.getObject(22, Long.class), r.getObject(23, Long.class), r.getObject(24, Long.class),
                        r.getObject(25, Long.class), r.getString(26), r.getString(27), r.getString(28),
                        r.getTimestamp(29).toInstant(), r.getString(30), r.getObject(31, Double.class),
                        r.getObject(32, Double.class), r.getObject(33, Boolean.class), r.getString(34),
                        r.getString(35), r.getObject(36, Long.class), r.getObject(37, Long.class),
                        r.getObject(38, Long.class), r.getObject(39, Double.class), r.getObject(40, Double.class)));
            }
            return out;
        } catch (SQLException e) {
            throw failure("read", e);
        }
    }

    /**
     * Writes the table as CSV (header row, the columns of {@link #COLUMNS}) or Parquet, whole or not at all: DuckDB
     * writes a temporary file in the target's folder, which is then moved over the target. The target must not be
     * this database (the caller checks links too, before any work): replacing it would lose every result.
     */
    public void export(Path target, boolean parquet) {
        Path absolute = target.toAbsolutePath();
        if (file != null && absolute.normalize().equals(file.toAbsolutePath().normalize())) {
            throw new SweepException("cannot export " + file + " onto itself: that would replace the results "
                    + "database; name another file");
        }
        Path tmp = absolute.resolveSibling("." + absolute.getFileName() + ".tmp" + (parquet ? ".parquet" : ".csv"));
        try {
            Files.createDirectories(absolute.getParent());
            copyTo(tmp, parquet);
            Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (SQLException | IOException e) {
            deleteQuietly(tmp);
            throw new SweepException("cannot export " + file + " to " + target + ": " + e.getMessage(), e);
        }
    }

    /** Writes the table as CSV text (header row) to {@code out}, through a temporary file. */
    public void exportCsv(java.io.Writer out) {
        Path tmp = null;
        try {
            tmp = Files.createTempFile("memplan-export", ".csv");
            Files.delete(tmp);
            copyTo(tmp, false);
            try (java.io.Reader in = Files.newBufferedReader(tmp)) {
                in.transferTo(out);
            }
            out.flush();
        } catch (SQLException | IOException e) {
            throw new SweepException("cannot export " + file + " to standard output: " + e.getMessage(), e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    private void copyTo(Path tmp, boolean parquet) throws SQLException {
        String select = "SELECT " + selectList() + " FROM results" + ORDER;
        String format = parquet ? "(FORMAT PARQUET)" : "(FORMAT CSV, HEADER)";
        try (Statement s = connection.createStatement()) {
            s.execute("COPY (" + select + ") TO '" + tmp.toString().replace("'", "''") + "' " + format);
        }
    }

    private static String quoted(List<String> columns) {
        return String.join(", ", columns.stream().map(c -> '"' + c + '"').toList());
    }

    /**
     * {@link #COLUMNS} as a select list; a column a database made before it lacks (opened read-only, so not
     * migrated) reads as NULL.
     */
    private String selectList() throws SQLException {
        Set<String> present = new HashSet<>();
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'results'")) {
            while (r.next()) {
                present.add(r.getString(1));
            }
        }
        List<String> items = new java.util.ArrayList<>();
        for (String c : COLUMNS) {
            items.add(present.contains(c) ? '"' + c + '"' : "NULL AS \"" + c + '"');
        }
        return String.join(", ", items);
    }

    private static void deleteQuietly(Path tmp) {
        if (tmp == null) {
            return;
        }
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // The export already failed or finished; that is the outcome to report.
        }
    }

    private SweepException failure(String verb, SQLException e) {
        return new SweepException("cannot " + verb + " the results database " + (file == null ? "(in memory)" : file)
                + ": " + e.getMessage(), e);
    }

    @Override
    public void close() {
        try {
            if (insert != null) {
                insert.close();
            }
            connection.close();
        } catch (SQLException e) {
            throw failure("close", e);
        }
    }
}
