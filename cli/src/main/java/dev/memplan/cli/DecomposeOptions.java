package dev.memplan.cli;

import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The divide-and-conquer options of solve and compare (issue 13). */
final class DecomposeOptions {
    @Option(names = "--decompose", paramLabel = "auto|none|FILE", defaultValue = "auto",
            description = {"divide and conquer: 'auto' splits graphs above " + DivideAndConquer.AUTO_THRESHOLD
                + " operators at automatic break nodes,", "'none' solves the whole graph, FILE names break nodes (one "
                + "operator a line, # comments) (default: ${DEFAULT-VALUE})"})
    String decompose;

    @Option(names = "--max-part", paramLabel = "N", defaultValue = "" + DivideAndConquer.DEFAULT_MAX_PART,
            description = "most operators per part with automatic break nodes (default: ${DEFAULT-VALUE})")
    int maxPart;

    @Option(names = "--break-nodes", paramLabel = "OP1,...", split = ",",
            description = "break nodes by name (implies divide and conquer): part k is break node k with its "
                    + "ancestors not in an earlier part")
    List<String> breakNodes;

    /**
     * The divide-and-conquer options for this graph, or null to solve it whole.
     *
     * @throws UserException for a bad part size, an unreadable file or an unknown break node
     */
    DivideAndConquer.Options choose(Graph g, CosmaSolver.Options cosma) {
        if (maxPart < 1) {
            throw new UserException("--max-part must be >= 1, got " + maxPart);
        }
        DivideAndConquer.Options options = DivideAndConquer.Options.of(cosma).withMaxPart(maxPart);
        List<String> names = breakNodes;
        if (names == null && !decompose.equals("auto") && !decompose.equals("none")) {
            names = readBreakNodes(Path.of(decompose));
        }
        if (names != null) {
            for (String name : names) {
                if (g.operatorIndex(name.strip()) < 0) {
                    throw new UserException((breakNodes != null ? "--break-nodes" : decompose) + ": break node '"
                            + name.strip() + "' is not an operator of graph '" + g.name() + "'");
                }
            }
            return options.withBreakNodes(names.stream().map(String::strip).toList());
        }
        if (decompose.equals("none") || (decompose.equals("auto") && g.operatorCount() <= DivideAndConquer.AUTO_THRESHOLD)) {
            return null;
        }
        return options;
    }

    /**
     * With {@code --decompose auto} on a graph it would split, the whole graph's COSMA pipeline runs first, with
     * {@link #WHOLE_FIRST_SHARE} of the time left ({@link DivideAndConquer#STEP_CAP} without a limit); divide and
     * conquer follows only when that did not prove its plan optimal ({@link #decomposeAfter}) and starts from its
     * plan, so auto is never worse than the whole graph's pipeline within its share. Measured (BENCHMARKS.md,
     * "Divide and conquer"): on gen:layered:2000 and 5000 the whole pipeline proves the optimum within 5-10 s
     * (5,732 B where divide and conquer alone ended at 56,156-135,868 B), while on 20,000 operators it skips every
     * program as too large within a few seconds and divide and conquer gets the rest. A graph whose whole program
     * is estimated too large ({@link DivideAndConquer#wholeFirstDoesNotPayOff}: the NAS networks, 20,000 operators)
     * is divided at once. Null when not auto or when divided at once.
     */
    CosmaResult wholeFirst(Graph full, TensorSetting s, long budget, CosmaSolver.Options options, Limits limits,
                           PrintWriter err) {
        if (breakNodes != null || !decompose.equals("auto")) {
            return null;
        }
        String whyNot = DivideAndConquer.wholeFirstDoesNotPayOff(full.withSetting(s));
        if (whyNot != null) {
            err.println("decompose auto: divide and conquer at once: " + whyNot);
            err.flush();
            return null;
        }
        Limits left = limits.startingNow();
        Limits share = left.withTimeLimit(left.timeLimit() == null ? DivideAndConquer.STEP_CAP
                : java.time.Duration.ofMillis(Math.round(left.timeLimit().toMillis() * WHOLE_FIRST_SHARE)));
        err.println("decompose auto: the whole graph first (" + share.timeLimit().toMillis() / 1000.0
                + " s), divide and conquer after it unless its plan is proven optimal ...");
        err.flush();
        CosmaResult r = CosmaSolver.solve(full, s, budget, options, share);
        err.println("decompose auto: the whole graph gave " + r.status() + ", traffic "
                + (r.objective() == null ? "-" : r.objective()));
        err.flush();
        return r;
    }

    /** Whether divide and conquer should follow the whole graph's result: not proven, and time is left. */
    static boolean decomposeAfter(CosmaResult whole, Limits limits) {
        return whole.status() != SolveStatus.OPTIMAL && whole.status() != SolveStatus.INFEASIBLE && !limits.expired();
    }

    /** The share of the time left that {@code --decompose auto} gives the whole graph before dividing it. */
    static final double WHOLE_FIRST_SHARE = 0.8;

    String describe(DivideAndConquer.Options options) {
        return options.breakNodes() != null ? options.breakNodes().size() + " break nodes given"
                : "automatic break nodes, parts of at most " + options.maxPart() + " operators";
    }

    private static List<String> readBreakNodes(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UserException("--decompose " + file + ": cannot read the break-node file: " + dev.memplan.model.io.AtomicFiles.reason(e)
                    + "; use auto, none or a file with one operator name a line");
        }
        List<String> names = new ArrayList<>();
        for (String line : lines) {
            String s = line.strip();
            if (!s.isEmpty() && !s.startsWith("#")) {
                names.add(s);
            }
        }
        if (names.isEmpty()) {
            throw new UserException(file + ": no break node (one operator name a line)");
        }
        return names;
    }
}
