package dev.memplan.cli;

import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.io.AtomicFiles;
import dev.memplan.model.io.OperatorLists;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
     * The pipeline's settings for this graph: how it decomposes ({@code auto}, {@code none}, break nodes from the
     * option or a file), the part size, the COSMA options and the minimum-peak scheduler.
     *
     * @throws UserException for a bad part size, an unreadable file or an unknown break node
     */
    CosmaPipeline.Settings settings(Graph g, CosmaSolver.Options cosma, MinimumPeakScheduler mpmf) {
        if (maxPart < 1) {
            throw new UserException("--max-part must be >= 1, got " + maxPart);
        }
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(cosma, mpmf).withMaxPart(maxPart)
                .withDecompose(decompose.equals("none") ? CosmaPipeline.Decompose.NONE : CosmaPipeline.Decompose.AUTO);
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
            return settings.withBreakNodes(names.stream().map(String::strip).toList());
        }
        return settings;
    }

    String describe(DivideAndConquer.Options options) {
        return options.breakNodes() != null ? options.breakNodes().size() + " break nodes given"
                : "automatic break nodes, parts of at most " + options.maxPart() + " operators";
    }

    private static List<String> readBreakNodes(Path file) {
        List<String> names;
        try {
            names = OperatorLists.names(Files.readString(file));
        } catch (IOException e) {
            throw new UserException("--decompose " + file + ": cannot read the break-node file: " + AtomicFiles.reason(e)
                    + "; use auto, none or a file with one operator name a line");
        }
        if (names.isEmpty()) {
            throw new UserException(file + ": no break node (one operator name a line)");
        }
        return names;
    }
}
