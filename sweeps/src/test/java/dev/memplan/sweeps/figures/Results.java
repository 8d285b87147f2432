package dev.memplan.sweeps.figures;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Sweep results written as memplan sweep writes them (RESULTS-SCHEMA.md): a DuckDB table or a CSV export. */
final class Results {
    /** The full schema of the results table, in order. */
    static final String DDL = "CREATE TABLE results (case_key VARCHAR PRIMARY KEY, spec_hash VARCHAR, graph VARCHAR, "
            + "setting VARCHAR, budget VARCHAR, budget_bytes BIGINT, planner VARCHAR, solver VARCHAR, time_limit DOUBLE, "
            + "threads INTEGER, repeat INTEGER, status VARCHAR, traffic_compulsory BIGINT, traffic_non_compulsory BIGINT, "
            + "loads BIGINT, spills BIGINT, bound BIGINT, gap DOUBLE, seconds DOUBLE, vars BIGINT, cons BIGINT, "
            + "peak_footprint BIGINT, peak_address BIGINT, m_r BIGINT, m_p BIGINT, plan_path VARCHAR, machine VARCHAR, "
            + "memplan_version VARCHAR, finished_at TIMESTAMP, error VARCHAR)";
    static final String HEADER = "case_key,spec_hash,graph,setting,budget,budget_bytes,planner,solver,time_limit,threads,"
            + "repeat,status,traffic_compulsory,traffic_non_compulsory,loads,spills,bound,gap,seconds,vars,cons,"
            + "peak_footprint,peak_address,m_r,m_p,plan_path,machine,memplan_version,finished_at,error";

    /** The columns a test sets; the others get plausible fixed values. */
    record Row(String graph, String setting, String budget, long budgetBytes, String planner, String solver,
               double timeLimit, int repeat, String status, Long traffic, Long bound, Double gap, double seconds,
               String error) {
        Row(String graph, String budget, String planner, String status, Long traffic, Double gap, double seconds) {
            this(graph, "activations", budget, budgetOf(budget), planner, planner.equals("cosma") ? "cpsat" : "", 120,
                    0, status, traffic, gap == null ? null : traffic == null ? null : Math.round(traffic * (1 - gap)), gap,
                    seconds, status.equals("ERROR") ? "solver crashed, \"badly\"" : null);
        }

        private static long budgetOf(String budget) {
            return switch (budget) {
                case "M_R" -> 1000;
                case "M_H" -> 1500;
                case "M_P" -> 2000;
                default -> Long.parseLong(budget);
            };
        }

        Object[] values(int key) {
            return new Object[] {"k" + key, "spec", graph, setting, budget, budgetBytes, planner, solver, timeLimit, 1,
                repeat, status, 64L, traffic, traffic == null ? null : traffic / 2, traffic == null ? null : traffic / 2,
                bound, gap, seconds, null, null, 900L, 1000L, 1000L, 2000L, null, "host, 2 cores, Java 17", "0.1.0",
                "2026-11-23 16:32:34.072171", error};
        }
    }

    private Results() {
    }

    static void duckDb(Path file, List<Row> rows) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
             Statement s = c.createStatement()) {
            s.execute(DDL);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO results VALUES (" + "?, ".repeat(29) + "?)")) {
                for (int i = 0; i < rows.size(); i++) {
                    Object[] v = rows.get(i).values(i);
                    for (int j = 0; j < v.length; j++) {
                        insert.setObject(j + 1, v[j]);
                    }
                    insert.executeUpdate();
                }
            }
        }
    }

    /** CSV text as DuckDB's COPY writes it (as memplan sweep export does): quotes where needed, NULL as an empty field. */
    static String csv(List<Row> rows) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (int i = 0; i < rows.size(); i++) {
            List<String> fields = new ArrayList<>();
            for (Object o : rows.get(i).values(i)) {
                String f = o == null ? "" : o.toString();
                // DuckDB quotes an empty string, so that it differs from NULL (an empty field).
                if (f.isEmpty() && o != null || f.contains(",") || f.contains("\"") || f.contains("\n")) {
                    f = "\"" + f.replace("\"", "\"\"") + "\"";
                }
                fields.add(f);
            }
            sb.append(String.join(",", fields)).append('\n');
        }
        return sb.toString();
    }
}
