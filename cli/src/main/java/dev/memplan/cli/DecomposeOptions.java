package dev.memplan.cli;

import dev.memplan.decomposition.DivideAndConquer;
import java.util.List;
import picocli.CommandLine.Option;

/** The divide-and-conquer options of solve and compare (issue 13), checked by {@link dev.memplan.sweeps.SolveCase}. */
final class DecomposeOptions {
    @Option(names = "--decompose", paramLabel = "auto|none|FILE", defaultValue = "auto",
            description = {"divide and conquer: 'auto' splits graphs above " + DivideAndConquer.AUTO_THRESHOLD
                + " operators, or whose whole program is estimated too large,", "at automatic break nodes; 'none' "
                + "solves the whole graph, FILE names break nodes (one "
                + "operator a line, # comments) (default: ${DEFAULT-VALUE})"})
    String decompose;

    @Option(names = "--max-part", paramLabel = "N", defaultValue = "" + DivideAndConquer.DEFAULT_MAX_PART,
            description = "most operators per part with automatic break nodes (default: ${DEFAULT-VALUE})")
    int maxPart;

    @Option(names = "--break-nodes", paramLabel = "OP1,...", split = ",",
            description = "break nodes by name (implies divide and conquer): part k is break node k with its "
                    + "ancestors not in an earlier part")
    List<String> breakNodes;
}
