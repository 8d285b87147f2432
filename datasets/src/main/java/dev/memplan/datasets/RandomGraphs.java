package dev.memplan.datasets;

import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random graphs: the same seed and parameters give the same graph on every machine.
 */
public final class RandomGraphs {

    private RandomGraphs() {
    }

    /**
     * A layered DAG: {@code operators} operators in default order, each reading 1..{@code fanIn} tensors chosen
     * among the outputs of the previous {@code window} operators (and the graph input), with one output each
     * (sizes 1..{@code maxSize} bytes) and, when {@code parameters}, one parameter tensor per operator.
     */
    public static Graph layered(long seed, int operators, int fanIn, int window, long maxSize, boolean parameters) {
        Random random = new Random(seed);
        Graph.Builder b = Graph.builder("layered-" + operators + "-s" + seed);
        b.activation("input", 1 + (long) (random.nextDouble() * maxSize));
        List<String> produced = new ArrayList<>();
        produced.add("input");
        for (int o = 0; o < operators; o++) {
            List<String> reads = new ArrayList<>();
            int k = 1 + random.nextInt(fanIn);
            int from = Math.max(0, produced.size() - window);
            for (int i = 0; i < k; i++) {
                String t = i == 0 ? produced.get(produced.size() - 1)
                        : produced.get(from + random.nextInt(produced.size() - from));
                if (!reads.contains(t)) {
                    reads.add(t);
                }
            }
            if (parameters) {
                b.parameter("w" + o, 1 + (long) (random.nextDouble() * maxSize));
                reads.add("w" + o);
            }
            String out = "t" + o;
            b.activation(out, 1 + (long) (random.nextDouble() * maxSize));
            b.operator("op" + o, reads, List.of(out));
            produced.add(out);
        }
        b.output(produced.get(produced.size() - 1));
        return b.build();
    }
}
