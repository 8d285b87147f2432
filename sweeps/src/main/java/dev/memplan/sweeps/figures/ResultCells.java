package dev.memplan.sweeps.figures;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Sweep results arranged as the paper's figures and tables read them: one panel per network and tensor setting,
 * budgets as groups within a panel, planners as series; each cell is one (panel, budget, series).
 *
 * <p>Order: panels in the order of {@code graphs} when given, else by name, {@code activations} before
 * {@code all}; budgets M_R, then fractions between M_R and M_P by value, M_H (= 0.5), M_P, then budgets in bytes by
 * value; series in the order of {@code planners} when given, else by name with the {@code cosma} planners last
 * (where the paper puts COSMA's bar). A series is a planner; when the
 * selected rows hold one planner with several solvers, time limits or recompute weights, its label adds them
 * ({@code cosma cpsat 120s}, {@code cosma lambda=0.5}), so that distinct experiments never fall into one cell.
 *
 * <p>Rows that still share a cell are repeats. They collapse conservatively: the cell's traffic is the largest
 * over the repeats that found a plan, its gap the largest, its status the weakest (in the order OPTIMAL,
 * FEASIBLE, HEURISTIC, UNKNOWN, INFEASIBLE, ERROR) and its time the median. Time O(R log R) for R rows.
 */
public final class ResultCells {
    private final List<Panel> panels;
    private final List<String> budgets;
    private final List<String> series;
    private final Map<Key, Cell> cells;

    /** A panel: one network in one tensor setting. */
    public record Panel(String graph, String setting) {
        /** The panel's title, e.g. {@code resnet50 (activations)}; a graph file is named by its file name. */
        public String title() {
            return graph.substring(graph.lastIndexOf('/') + 1) + " (" + setting + ")";
        }
    }

    /**
     * One cell: the collapsed repeats of one planner at one budget of one panel.
     *
     * @param traffic non-compulsory traffic in bytes, null when no repeat found a plan
     * @param gap relative gap, null when the planner gave none
     * @param seconds median wall time, null when no repeat recorded one
     */
    public record Cell(FinishedCase.Status status, Long traffic, Double gap, Double seconds, int repeats, String error) {
        /** The mark a figure or table puts on the cell: empty when OPTIMAL, else a letter and the gap when known. */
        public String mark() {
            String m = status.mark();
            if (status == FinishedCase.Status.FEASIBLE && gap != null) {
                m += " " + Numbers.percent(gap);
            }
            return m;
        }
    }

    private record Key(Panel panel, String budget, String series) {
    }

    /**
     * Arranges rows; each filter null or empty keeps everything.
     *
     * @throws IllegalArgumentException when a filter names something the rows do not hold, or nothing is left
     */
    public ResultCells(List<FinishedCase> rows, List<String> settings, List<String> graphs, List<String> planners) {
        List<FinishedCase> kept = new ArrayList<>(rows);
        kept = filter(kept, settings, FinishedCase::setting, "setting");
        kept = filter(kept, graphs, FinishedCase::graph, "graph");
        kept = filter(kept, planners, FinishedCase::planner, "planner");
        Map<String, String> labels = seriesLabels(kept);

        Comparator<Panel> panelOrder = Comparator.comparing((Panel p) -> orderIn(graphs, p.graph()))
                .thenComparing(Panel::graph)
                .thenComparing(p -> p.setting().equals("activations") ? 0 : 1)
                .thenComparing(Panel::setting);
        panels = kept.stream().map(r -> new Panel(r.graph(), r.setting())).distinct().sorted(panelOrder).toList();
        budgets = kept.stream().map(FinishedCase::budget).distinct()
                .sorted(Comparator.comparingDouble(ResultCells::budgetRank).thenComparing(b -> b)).toList();
        Map<String, String> plannerOfLabel = new HashMap<>();
        Map<String, Double> weightOfLabel = new HashMap<>();
        kept.forEach(r -> plannerOfLabel.put(labels.get(seriesKey(r)), r.planner()));
        kept.forEach(r -> weightOfLabel.put(labels.get(seriesKey(r)), r.recomputeWeight()));
        series = new ArrayList<>(new TreeSet<>(labels.values()));
        // A planner's weights by value (spill only first), not by their text: lambda=2 before lambda=16.
        series.sort(Comparator.comparing((String s) -> orderIn(planners, plannerOfLabel.get(s)))
                .thenComparing(s -> planners == null && plannerOfLabel.get(s).startsWith("cosma"))
                .thenComparing(plannerOfLabel::get)
                .thenComparing(weightOfLabel::get, Comparator.nullsFirst(Comparator.naturalOrder())));

        Map<Key, List<FinishedCase>> grouped = new LinkedHashMap<>();
        for (FinishedCase r : kept) {
            grouped.computeIfAbsent(new Key(new Panel(r.graph(), r.setting()), r.budget(), labels.get(seriesKey(r))),
                    k -> new ArrayList<>()).add(r);
        }
        cells = new HashMap<>();
        grouped.forEach((k, v) -> cells.put(k, collapse(v)));
    }

    public List<Panel> panels() {
        return panels;
    }

    public List<String> budgets() {
        return budgets;
    }

    public List<String> series() {
        return series;
    }

    /** The cell, or null when the results hold no such case. */
    public Cell cell(Panel panel, String budget, String seriesLabel) {
        return cells.get(new Key(panel, budget, seriesLabel));
    }

    static List<FinishedCase> filter(List<FinishedCase> rows, List<String> wanted, java.util.function.Function<FinishedCase, String> field,
            String what) {
        if (wanted == null || wanted.isEmpty()) {
            return rows;
        }
        Set<String> present = rows.stream().map(field).collect(Collectors.toCollection(TreeSet::new));
        for (String w : wanted) {
            if (!present.contains(w)) {
                throw new IllegalArgumentException("no results for " + what + " '" + w + "'"
                        + (present.isEmpty() ? "" : "; the results hold: " + String.join(", ", present)));
            }
        }
        Set<String> set = Set.copyOf(wanted);
        return rows.stream().filter(r -> set.contains(field.apply(r))).toList();
    }

    private static int orderIn(List<String> order, String value) {
        if (order == null) {
            return 0;
        }
        int i = order.indexOf(value);
        return i < 0 ? order.size() : i;
    }

    private static String seriesKey(FinishedCase r) {
        return r.planner() + "\u0000" + r.solver() + "\u0000" + r.timeLimit() + "\u0000" + r.recomputeWeight();
    }

    /** The label of each (planner, solver, time limit): the planner, plus what tells its experiments apart. */
    private static Map<String, String> seriesLabels(List<FinishedCase> rows) {
        Map<String, Set<String>> solvers = new HashMap<>();
        Map<String, Set<Double>> limits = new HashMap<>();
        Map<String, Set<Double>> weights = new HashMap<>();
        for (FinishedCase r : rows) {
            solvers.computeIfAbsent(r.planner(), k -> new LinkedHashSet<>()).add(r.solver());
            limits.computeIfAbsent(r.planner(), k -> new LinkedHashSet<>()).add(r.timeLimit());
            weights.computeIfAbsent(r.planner(), k -> new LinkedHashSet<>()).add(r.recomputeWeight());
        }
        Map<String, String> labels = new HashMap<>();
        for (FinishedCase r : rows) {
            StringBuilder label = new StringBuilder(r.planner());
            if (solvers.get(r.planner()).size() > 1) {
                label.append(' ').append(r.solver().isEmpty() ? "(no solver)" : r.solver());
            }
            if (limits.get(r.planner()).size() > 1) {
                label.append(' ').append(r.timeLimit() == null ? "(no limit)" : Numbers.limit(r.timeLimit()) + "s");
            }
            if (weights.get(r.planner()).size() > 1) {
                label.append(' ').append(r.recomputeWeight() == null ? "(spill only)"
                        : "lambda=" + dev.memplan.sweeps.SweepCase.weight(r.recomputeWeight()));
            }
            labels.put(seriesKey(r), label.toString());
        }
        return labels;
    }

    /** M_R = 0, M_H = 0.5, M_P = 1, a fraction its value; budgets in bytes after all of them. */
    static double budgetRank(String budget) {
        switch (budget) {
            case "M_R":
                return 0;
            case "M_H":
                return 0.5;
            case "M_P":
                return 1;
            default:
                try {
                    double v = Double.parseDouble(budget);
                    return budget.contains(".") && v >= 0 && v <= 1 ? v : 2 + v;
                } catch (NumberFormatException e) {
                    return Double.MAX_VALUE;
                }
        }
    }

    private static Cell collapse(List<FinishedCase> repeats) {
        FinishedCase.Status status = FinishedCase.Status.OPTIMAL;
        Long traffic = null;
        Double gap = null;
        String error = null;
        List<Double> seconds = new ArrayList<>();
        for (FinishedCase r : repeats) {
            if (r.status().compareTo(status) > 0) {
                status = r.status();
            }
            if (r.trafficNonCompulsory() != null) {
                traffic = traffic == null ? r.trafficNonCompulsory() : Math.max(traffic, r.trafficNonCompulsory());
            }
            if (r.gap() != null) {
                gap = gap == null ? r.gap() : Math.max(gap, r.gap());
            }
            if (r.seconds() != null) {
                seconds.add(r.seconds());
            }
            if (r.error() != null && error == null) {
                error = r.error();
            }
        }
        seconds.sort(null);
        Double median = seconds.isEmpty() ? null : seconds.size() % 2 == 1 ? seconds.get(seconds.size() / 2)
                : (seconds.get(seconds.size() / 2 - 1) + seconds.get(seconds.size() / 2)) / 2;
        return new Cell(status, traffic, gap, median, repeats.size(), error);
    }
}
