package dev.memplan.sweeps;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A sweep spec built as an object, for the benchmarks that are sweeps of cases ({@code bench compare},
 * {@code bench cosma}): the same keys as a spec file, checked by the same reader ({@link SweepSpec#parse}), so a
 * built spec and a written one give the same cases and rows.
 */
public final class SpecBuilder {
    private final String name;
    private final Map<String, Object> root = new LinkedHashMap<>();
    private final List<Map<String, Object>> exclude = new ArrayList<>();

    public SpecBuilder(String name) {
        this.name = name;
        root.put("name", name);
    }

    public SpecBuilder graphs(List<String> values) {
        root.put("graphs", List.copyOf(values));
        return this;
    }

    public SpecBuilder settings(List<String> values) {
        root.put("settings", List.copyOf(values));
        return this;
    }

    public SpecBuilder budgets(List<String> values) {
        root.put("budgets", List.copyOf(values));
        return this;
    }

    public SpecBuilder planners(List<PlannerChoice> values) {
        root.put("planners", values.stream().map(PlannerChoice::specEntry).toList());
        return this;
    }

    /** The solver axes of every case: one back-end, time limit (null: none), work limit (null: none), threads. */
    public SpecBuilder solver(String solver, Double timeLimit, Double workLimit, int threads) {
        root.put("solvers", List.of(solver));
        root.put("time_limits", List.of(timeLimit == null ? "none" : BigDecimal.valueOf(timeLimit).toPlainString()));
        if (workLimit != null) {
            root.put("work_limits", List.of(BigDecimal.valueOf(workLimit).stripTrailingZeros().toPlainString()));
        }
        root.put("threads", List.of(threads));
        return this;
    }

    /** Drops the cases whose fields match: field (graph, setting, budget, planner, solver) to glob patterns. */
    public SpecBuilder exclude(Map<String, List<String>> filter) {
        exclude.add(new LinkedHashMap<>(filter));
        return this;
    }

    /** The spec, read as a spec file is (relative paths from the working folder). */
    public SweepSpec build() {
        Map<String, Object> all = new LinkedHashMap<>(root);
        if (!exclude.isEmpty()) {
            all.put("exclude", exclude);
        }
        try {
            return SweepSpec.parse(new ObjectMapper().writeValueAsString(all), name + ".json",
                    Path.of("").toAbsolutePath());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings and lists always writes as JSON", e);
        }
    }

    /**
     * Runs the spec on the local engine with {@code jobs} cases side by side, keeping the rows in {@code db} (null:
     * in memory; a re-run skips the cases in it); {@code onRow} sees each row as it is stored. Returns the rows of
     * all of the spec's cases by case key, those found in the database included.
     */
    public static Map<String, ResultRow> run(SweepSpec spec, Path db, Path plans, int jobs, PrintWriter err,
                                             Consumer<ResultRow> onRow) {
        try (ResultsDb results = ResultsDb.open(db)) {
            SweepRun.run(spec, results, plans, SweepEngine.byName("local"), new SweepEngine.Options(jobs, null), err,
                    onRow);
            Map<String, ResultRow> byKey = new HashMap<>();
            for (ResultRow r : results.rows()) {
                byKey.put(r.caseKey(), r);
            }
            Map<String, ResultRow> mine = new HashMap<>();
            for (SweepCase c : spec.cases()) {
                mine.put(c.key(), byKey.get(c.key()));
            }
            return mine;
        }
    }
}
