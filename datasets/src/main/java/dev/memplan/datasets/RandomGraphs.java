package dev.memplan.datasets;

import dev.memplan.model.ClockGuard;
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

    /** What a {@link ClockGuard} names when the clock runs out in a generator. */
    private static final String GENERATING = "generating the graph";

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
            ClockGuard.poll(o, GENERATING);
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

    /**
     * A layered DAG of {@code depth} layers of {@code width} operators. Each operator reads one output of the
     * layer just before it (the graph input for the first layer) and up to {@code fanIn - 1} more outputs of any
     * earlier layer, and writes one tensor of 1..{@code maxSize} bytes; with {@code parameters}, it also reads a
     * parameter of its own. Every tensor nobody reads is a graph output. Operators are listed layer by layer.
     */
    public static Graph layers(long seed, int width, int depth, int fanIn, long maxSize, boolean parameters) {
        if (width < 1 || depth < 1 || fanIn < 1 || maxSize < 1) {
            throw new IllegalArgumentException("width, depth, fan-in and size must be >= 1");
        }
        Random random = new Random(seed);
        Graph.Builder b = Graph.builder("layers-" + width + "x" + depth + "-f" + fanIn + "-s" + seed);
        b.activation("input", size(random, maxSize));
        List<List<String>> layers = new ArrayList<>();
        layers.add(List.of("input"));
        java.util.Set<String> read = new java.util.HashSet<>();
        for (int l = 0; l < depth; l++) {
            List<String> previous = layers.get(layers.size() - 1);
            List<String> layer = new ArrayList<>();
            for (int w = 0; w < width; w++) {
                List<String> reads = new ArrayList<>();
                reads.add(previous.get(random.nextInt(previous.size())));
                int extra = random.nextInt(fanIn);
                for (int i = 0; i < extra; i++) {
                    List<String> from = layers.get(random.nextInt(layers.size()));
                    String t = from.get(random.nextInt(from.size()));
                    if (!reads.contains(t)) {
                        reads.add(t);
                    }
                }
                read.addAll(reads);
                String op = "l" + l + "n" + w;
                if (parameters) {
                    b.parameter(op + ".w", size(random, maxSize));
                    reads.add(op + ".w");
                }
                b.activation(op, size(random, maxSize));
                b.operator(op, reads, List.of(op));
                layer.add(op);
            }
            layers.add(layer);
        }
        for (int l = 1; l < layers.size(); l++) {
            for (String t : layers.get(l)) {
                if (!read.contains(t)) {
                    b.output(t);
                }
            }
        }
        return b.build();
    }

    /**
     * A stack of randomly wired NAS-like cells (after the cell search spaces of NASNet and DARTS): each cell
     * reads the outputs of the two cells before it, has {@code nodes} nodes, and each node applies a unary
     * operation (sized like a convolution's output) to each of two inputs drawn from the cell inputs and the
     * earlier nodes, then adds them; the cell output concatenates the nodes no other node of the cell read.
     * Every {@code reductionEvery}-th cell (0: none) halves the feature-map size. A stem produces the first
     * two cell inputs; the last cell's output is the graph output. Sizes are multiples of {@code unit} bytes.
     */
    public static Graph cells(long seed, int cellCount, int nodes, int reductionEvery, long unit, boolean parameters) {
        if (cellCount < 1 || nodes < 1 || unit < 1 || reductionEvery < 0) {
            throw new IllegalArgumentException("cells, nodes and unit must be >= 1, reductionEvery >= 0");
        }
        Random random = new Random(seed);
        Graph.Builder b = Graph.builder("cells-" + cellCount + "x" + nodes + "-s" + seed);
        long scale = 16;
        b.activation("input", 3 * scale * unit);
        String prev2 = stemOp(b, "stem0", "input", scale * unit, parameters, unit);
        String prev = stemOp(b, "stem1", prev2, scale * unit, parameters, unit);
        for (int c = 0; c < cellCount; c++) {
            ClockGuard.poll(c, GENERATING);
            boolean reduction = reductionEvery > 0 && (c + 1) % reductionEvery == 0;
            long nodeSize = Math.max(1, (reduction ? scale / 2 : scale)) * unit;
            List<String> states = new ArrayList<>(List.of(prev2, prev));
            java.util.Set<String> used = new java.util.HashSet<>();
            for (int n = 0; n < nodes; n++) {
                String node = "c" + c + ".n" + n;
                List<String> branches = new ArrayList<>();
                for (int k = 0; k < 2; k++) {
                    String from = states.get(random.nextInt(states.size()));
                    used.add(from);
                    String op = node + ".e" + k;
                    List<String> reads = new ArrayList<>(List.of(from));
                    if (parameters) {
                        b.parameter(op + ".w", (1 + random.nextInt(4)) * unit);
                        reads.add(op + ".w");
                    }
                    b.activation(op, nodeSize);
                    b.operator(op, reads, List.of(op));
                    branches.add(op);
                }
                b.activation(node, nodeSize);
                b.operator(node + ".add", branches, List.of(node));
                states.add(node);
            }
            List<String> loose = new ArrayList<>();
            for (String s : states.subList(2, states.size())) {
                if (!used.contains(s)) {
                    loose.add(s);
                }
            }
            String out = "c" + c;
            b.activation(out, nodeSize * loose.size());
            b.operator(out + ".concat", loose, List.of(out));
            prev2 = prev;
            prev = out;
            if (reduction) {
                scale = Math.max(1, scale / 2);
            }
        }
        b.output(prev);
        return b.build();
    }

    private static String stemOp(Graph.Builder b, String name, String input, long size, boolean parameters, long unit) {
        List<String> reads = new ArrayList<>(List.of(input));
        if (parameters) {
            b.parameter(name + ".w", 2 * unit);
            reads.add(name + ".w");
        }
        b.activation(name, size);
        b.operator(name, reads, List.of(name));
        return name;
    }

    private static long size(Random random, long maxSize) {
        return 1 + (long) (random.nextDouble() * maxSize);
    }
}
