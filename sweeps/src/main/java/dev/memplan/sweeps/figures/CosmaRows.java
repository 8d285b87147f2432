package dev.memplan.sweeps.figures;

import dev.memplan.decomposition.PipelineReport;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.sweeps.ResultRow;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The table of {@code bench cosma}: a line per COSMA case (graph, setting, budget, schedule) with the best traffic
 * of the paper's schemes it started from (on the same schedule when it is fixed) and COSMA's status, traffic,
 * bound, gap, time and model size. A COSMA line is complete once the schemes of its start have rows.
 */
public final class CosmaRows {
    private static final String[] HEADER = {"network", "setting", "budget", "bytes", "schedule", "start", "status",
        "traffic", "bound", "gap", "seconds", "variables", "constraints", "encoding", "back-end"};

    private final String encoding;
    private final Map<String, Map<String, ResultRow>> groups = new LinkedHashMap<>();
    private final Set<String> done = new HashSet<>();

    /** @param encoding the label of the encoding the cases ran (e.g. "decoupled without forced") */
    public CosmaRows(String encoding) {
        this.encoding = encoding;
    }

    public static String[] header() {
        return HEADER.clone();
    }

    /** Adds a row; the COSMA lines this row completes (each once). */
    public List<String[]> add(ResultRow r) {
        Map<String, ResultRow> g = groups.computeIfAbsent(group(r), k -> new LinkedHashMap<>());
        g.put(r.planner(), r);
        return g.values().stream()
                .filter(c -> c.planner().startsWith("cosma") && start(g, c) != null && done.add(c.caseKey()))
                .map(c -> line(c, start(g, c))).toList();
    }

    /**
     * Every COSMA line of these rows in spec order: graph as in {@code graphs}, then setting and budget as in
     * theirs, then planner.
     */
    public List<String[]> lines(List<ResultRow> rows, List<String> graphs, List<String> settings,
                                List<String> budgets) {
        Map<String, Map<String, ResultRow>> all = new LinkedHashMap<>();
        rows.stream().sorted(Comparator.<ResultRow>comparingInt(r -> (graphs.indexOf(r.graph()) * 10
                        + settings.indexOf(r.setting())) * 100 + budgets.indexOf(r.budget()))
                .thenComparing(ResultRow::planner))
                .forEach(r -> all.computeIfAbsent(group(r), k -> new LinkedHashMap<>()).put(r.planner(), r));
        return all.values().stream().flatMap(g -> g.values().stream().filter(c -> c.planner().startsWith("cosma"))
                .map(c -> line(c, start(g, c)))).toList();
    }

    private static String group(ResultRow r) {
        return r.graph() + "\u0001" + r.setting() + "\u0001" + r.budget();
    }

    private static String schedule(ResultRow cosma) {
        return cosma.planner().contains("schedule=default") ? "default"
                : cosma.planner().contains("schedule=mpmf") ? "mpmf" : "free";
    }

    /** The best starting traffic among the schemes COSMA started from, -1 for none, or null while some are not done. */
    private static Long start(Map<String, ResultRow> g, ResultRow cosma) {
        String schedule = schedule(cosma);
        Long best = null;
        for (String name : Schemes.PAPER) {
            if (!schedule.equals("free") && !name.startsWith(schedule + "/")) {
                continue;
            }
            ResultRow r = g.get(name);
            if (r == null) {
                return null;
            }
            if (r.trafficNonCompulsory() != null && (best == null || r.trafficNonCompulsory() < best)) {
                best = r.trafficNonCompulsory();
            }
        }
        return best == null ? -1L : best;
    }

    private String[] line(ResultRow c, Long start) {
        return new String[] {c.graph(), c.setting(), c.budget(), ComparisonRows.text(c.budgetBytes()), schedule(c),
            start == null || start < 0 ? "-" : Long.toString(start),
            c.status() + (c.error() == null ? "" : " (" + c.error() + ")"),
            ComparisonRows.text(c.trafficNonCompulsory()), ComparisonRows.text(c.bound()),
            PipelineReport.gap(c.gap()),
            String.format(Locale.ROOT, "%.2f", c.seconds()), ComparisonRows.text(c.vars()),
            ComparisonRows.text(c.cons()), encoding, c.solver()};
    }
}
