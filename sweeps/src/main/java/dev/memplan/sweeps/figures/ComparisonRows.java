package dev.memplan.sweeps.figures;

import dev.memplan.decomposition.PipelineReport;
import dev.memplan.sweeps.ResultRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The table of {@code bench compare} (the paper's Fig. 3): a line per graph, setting and budget with each scheme's
 * non-compulsory traffic, the best of them, and COSMA's against it. Lines come in spec order; one is complete when
 * every planner of its case group has a row.
 */
public final class ComparisonRows {
    private final List<String> schemes;
    private final int perGroup;
    private final Map<String, Map<String, ResultRow>> groups = new LinkedHashMap<>();

    public ComparisonRows(List<String> graphs, List<String> settings, List<String> budgets, List<String> schemes,
                          boolean cosma) {
        this.schemes = List.copyOf(schemes);
        this.perGroup = schemes.size() + (cosma ? 1 : 0);
        for (String g : graphs) {
            for (String s : settings) {
                for (String b : budgets) {
                    groups.put(key(g, s, b), new LinkedHashMap<>());
                }
            }
        }
    }

    public String[] header() {
        List<String> header = new ArrayList<>(List.of("network", "setting", "budget", "bytes"));
        header.addAll(schemes);
        header.addAll(List.of("best scheme", "cosma", "cosma status", "cosma bound", "cosma seconds",
            "reduction vs best"));
        return header.toArray(new String[0]);
    }

    /** Adds a row; its group's line when this row completes the group, else null. */
    public String[] add(ResultRow r) {
        Map<String, ResultRow> g = groups.get(key(r.graph(), r.setting(), r.budget()));
        g.put(r.planner().startsWith("cosma") ? "cosma" : r.planner(), r);
        return g.size() == perGroup ? line(g) : null;
    }

    /** Every group's line, in spec order. */
    public List<String[]> lines() {
        return groups.values().stream().map(this::line).toList();
    }

    /** How much less traffic COSMA has than a scheme, in percent of the scheme's. */
    public static String reduction(long cosma, long scheme) {
        return PipelineReport.reduction(cosma, scheme);
    }

    /** A nullable number as text, "-" for none. */
    public static String text(Long value) {
        return value == null ? "-" : Long.toString(value);
    }

    private static String key(String network, String setting, String budget) {
        return network + "\u0001" + setting + "\u0001" + budget;
    }

    private String[] line(Map<String, ResultRow> g) {
        ResultRow any = g.values().iterator().next();
        List<String> row = new ArrayList<>(List.of(any.graph(), any.setting(), any.budget(), text(any.budgetBytes())));
        Long best = null;
        for (String name : schemes) {
            ResultRow r = g.get(name);
            row.add(cell(r));
            if (r != null && r.trafficNonCompulsory() != null && (best == null || r.trafficNonCompulsory() < best)) {
                best = r.trafficNonCompulsory();
            }
        }
        row.add(text(best));
        ResultRow c = g.get("cosma");
        if (c == null) {
            row.addAll(List.of("-", "-", "-", "-", "-"));
        } else {
            row.add(text(c.trafficNonCompulsory()));
            row.add(c.status() + (c.error() == null ? "" : " (" + c.error() + ")"));
            row.add(text(c.bound()));
            row.add(String.format(Locale.ROOT, "%.2f", c.seconds()));
            row.add(c.trafficNonCompulsory() == null || best == null ? "-" : reduction(c.trafficNonCompulsory(), best));
        }
        return row.toArray(new String[0]);
    }

    private static String cell(ResultRow r) {
        if (r == null) {
            return "-";
        }
        if (r.status().equals("ERROR")) {
            return "ERROR (" + r.error() + ")";
        }
        return r.trafficNonCompulsory() == null ? "no packing" : Long.toString(r.trafficNonCompulsory());
    }
}
