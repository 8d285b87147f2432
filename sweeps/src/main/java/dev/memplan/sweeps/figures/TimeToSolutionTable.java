package dev.memplan.sweeps.figures;

import java.util.ArrayList;
import java.util.List;

/**
 * The time-to-solution table of the COSMA paper's Table II (Li, Gupta, Malik, "COSMA", section V-C): one row
 * per network and tensor setting, a group of columns per planner with one column per budget, each cell the
 * seconds to solution, marked when the case is not proven optimal: {@code F 3.1%} feasible with its gap,
 * {@code F} feasible without a bound, {@code H} heuristic, {@code U} unknown (no plan within the limit),
 * {@code I} infeasible (proven), {@code E} error; {@code -} where the results hold no such case. Seconds are
 * the median over repeats (see {@link ResultCells}). Markdown or LaTeX (booktabs); below the legend (in LaTeX, in
 * comments above the table) the message of each errored cell. Time O(cells).
 */
public final class TimeToSolutionTable {
    /** The output formats. */
    public enum Format {
        MARKDOWN, LATEX;

        /**
         * markdown (or md) or latex (or tex), any case.
         *
         * @throws IllegalArgumentException naming the formats for any other text
         */
        public static Format parse(String text) {
            return switch (text.toLowerCase(java.util.Locale.ROOT)) {
                case "markdown", "md" -> MARKDOWN;
                case "latex", "tex" -> LATEX;
                default -> throw new IllegalArgumentException("unknown --format '" + text + "': use " + String.join(" or ",
                        java.util.Arrays.stream(values()).map(f -> f.name().toLowerCase(java.util.Locale.ROOT)).toList()));
            };
        }
    }

    static final String LEGEND = "Seconds to solution (median over repeats). Marks: F feasible, not proven optimal "
            + "(with its gap when a bound is known), H heuristic, U unknown (no plan within the limit), I infeasible "
            + "(proven), E error; - not run.";

    private TimeToSolutionTable() {
    }

    /** The table as text in the given format, ending with a legend line. */
    public static String render(ResultCells cells, Format format) {
        return format == Format.MARKDOWN ? markdown(cells) : latex(cells);
    }

    private static String cellText(ResultCells.Cell c) {
        if (c == null) {
            return "-";
        }
        String time = c.seconds() == null ? "" : Numbers.seconds(c.seconds());
        String mark = c.mark();
        if (time.isEmpty()) {
            return mark.isEmpty() ? "-" : mark;
        }
        return mark.isEmpty() ? time : time + " " + mark;
    }

    private static String markdown(ResultCells cells) {
        List<String> header = new ArrayList<>(List.of("network", "setting"));
        for (String s : cells.series()) {
            for (String b : cells.budgets()) {
                header.add(s + " " + b);
            }
        }
        StringBuilder sb = new StringBuilder();
        row(sb, header);
        List<String> rule = new ArrayList<>(List.of("---", "---"));
        for (int i = 2; i < header.size(); i++) {
            rule.add("---:");
        }
        row(sb, rule);
        for (ResultCells.Panel p : cells.panels()) {
            List<String> r = new ArrayList<>(List.of(p.graph(), p.setting()));
            for (String s : cells.series()) {
                for (String b : cells.budgets()) {
                    r.add(cellText(cells.cell(p, b, s)));
                }
            }
            row(sb, r);
        }
        sb.append('\n').append(LEGEND).append('\n');
        for (String e : errors(cells)) {
            sb.append("- E ").append(e).append('\n');
        }
        return sb.toString();
    }

    /** What each errored cell's row says, as {@code network setting budget planner: error}, in table order. */
    private static List<String> errors(ResultCells cells) {
        List<String> out = new ArrayList<>();
        for (ResultCells.Panel p : cells.panels()) {
            for (String s : cells.series()) {
                for (String b : cells.budgets()) {
                    ResultCells.Cell c = cells.cell(p, b, s);
                    if (c != null && c.error() != null) {
                        out.add(p.graph() + " " + p.setting() + " " + b + " " + s + ": "
                                + c.error().replaceAll("\\s+", " "));
                    }
                }
            }
        }
        return out;
    }

    private static void row(StringBuilder sb, List<String> fields) {
        sb.append('|');
        for (String f : fields) {
            sb.append(' ').append(f.replace("|", "\\|")).append(" |");
        }
        sb.append('\n');
    }

    private static String latex(ResultCells cells) {
        int budgets = cells.budgets().size();
        StringBuilder sb = new StringBuilder();
        sb.append("% ").append(LEGEND).append('\n');
        for (String e : errors(cells)) {
            sb.append("% E ").append(e).append('\n');
        }
        sb.append("% needs \\usepackage{booktabs}\n");
        sb.append("\\begin{tabular}{ll");
        for (int i = 0; i < cells.series().size(); i++) {
            sb.append('|').append("r".repeat(budgets));
        }
        sb.append("}\n\\toprule\n");
        sb.append("Network & Setting");
        for (String s : cells.series()) {
            sb.append(" & \\multicolumn{").append(budgets).append("}{c}{").append(escape(s)).append('}');
        }
        sb.append(" \\\\\n");
        for (int i = 0; i < cells.series().size(); i++) {
            int first = 3 + i * budgets;
            sb.append("\\cmidrule(lr){").append(first).append('-').append(first + budgets - 1).append('}');
        }
        sb.append('\n');
        sb.append(" & ");
        for (int i = 0; i < cells.series().size(); i++) {
            for (String b : cells.budgets()) {
                sb.append(" & ").append(budgetLatex(b));
            }
        }
        sb.append(" \\\\\n\\midrule\n");
        for (ResultCells.Panel p : cells.panels()) {
            sb.append(escape(p.graph())).append(" & ").append(escape(p.setting()));
            for (String s : cells.series()) {
                for (String b : cells.budgets()) {
                    sb.append(" & ").append(escape(cellText(cells.cell(p, b, s))));
                }
            }
            sb.append(" \\\\\n");
        }
        return sb.append("\\bottomrule\n\\end{tabular}\n").toString();
    }

    private static String budgetLatex(String budget) {
        return budget.matches("M_[RHP]") ? "$M_" + budget.charAt(2) + "$" : escape(budget);
    }

    /** LaTeX's special characters as text. */
    static String escape(String text) {
        StringBuilder sb = new StringBuilder();
        for (char c : text.toCharArray()) {
            switch (c) {
                case '\\' -> sb.append("\\textbackslash{}");
                case '&', '%', '$', '#', '_', '{', '}' -> sb.append('\\').append(c);
                case '~' -> sb.append("\\textasciitilde{}");
                case '^' -> sb.append("\\textasciicircum{}");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
