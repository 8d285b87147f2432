package dev.memplan.datasets.mmap;

import dev.memplan.model.Graph;
import dev.memplan.model.mmap.MmapBuffer;
import dev.memplan.model.mmap.MmapInstance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Two-level memory mapping instances: derived from a graph (each operator of the default order an instruction,
 * its input and output tensors its buffers) or generated at random, with benefits, demands and supplies from a
 * {@link CostModel}.
 *
 * <p>Live ranges of a graph's buffers: an output of the operator at time p may stay in fast memory until the last
 * reader of its tensor (the program's end for a graph output); an input read at time c may be copied in from
 * {@code p + 1} (the step after its producer) or from time 0 for parameters and graph inputs. Graphs have no
 * aliasing, so every buffer is its own alias group. Default capacity: the largest working set of one instruction
 * (the bytes of all its buffers), so every instruction could run from fast memory alone but not every tensor can
 * stay.
 */
public final class MmapInstances {

    /** Name prefix of generated programs: {@code gen:mmap:N[:SEED]} with N buffers. */
    public static final String GENERATED_PREFIX = "gen:mmap:";
    /** The most buffers of a generated program. */
    public static final int MAX_BUFFERS = 1_000_000;

    private MmapInstances() {
    }

    /** The graph's instance with the default cost model and default capacity. */
    public static MmapInstance fromGraph(Graph g) {
        return fromGraph(g, CostModel.DEFAULT);
    }

    public static MmapInstance fromGraph(Graph g, CostModel cost) {
        int n = g.operatorCount();
        int[] lastUse = new int[g.tensorCount()];
        for (int x = 0; x < g.tensorCount(); x++) {
            int last = g.producer(x);
            for (int c : g.consumers(x)) {
                last = Math.max(last, c);
            }
            lastUse[x] = g.isGraphOutput(x) ? n - 1 : last;
        }
        long[] supply = new long[n];
        List<MmapBuffer> buffers = new ArrayList<>();
        long capacity = 0;
        for (int op = 0; op < n; op++) {
            long workingSet = 0;
            for (int x : Arrays.stream(g.inputs(op)).distinct().toArray()) {
                long s = g.size(x);
                int first = g.producer(x) < 0 ? 0 : g.producer(x) + 1;
                buffers.add(new MmapBuffer(x, -1, s, false, op, Math.min(first, op), op, cost.demand(s),
                        cost.benefit(s)));
                supply[op] += cost.fast(s);
                workingSet += s;
            }
            for (int x : g.outputs(op)) {
                long s = g.size(x);
                buffers.add(new MmapBuffer(x, -1, s, true, op, op, Math.max(op, lastUse[x]), cost.demand(s),
                        cost.benefit(s)));
                supply[op] += cost.fast(s);
                workingSet += s;
            }
            capacity = Math.max(capacity, workingSet);
        }
        return new MmapInstance(g.name(), capacity, supply, buffers);
    }

    /**
     * The instance an argument names: a memplan-mmap/1 instance file, a generated program ({@code gen:mmap:N[:SEED]}),
     * or else the instance of the graph {@code graphs} reads from it (a graph file or name).
     *
     * @throws IllegalArgumentException for a malformed generated program name
     */
    public static MmapInstance read(String argument, java.util.function.Function<String, Graph> graphs) {
        java.nio.file.Path file = java.nio.file.Path.of(argument);
        if (java.nio.file.Files.isRegularFile(file) && dev.memplan.model.io.MmapJson.isInstanceFile(file)) {
            return dev.memplan.model.io.MmapJson.read(file);
        }
        return isGeneratedName(argument) ? generated(argument) : fromGraph(graphs.apply(argument));
    }

    /**
     * As {@link #read(String, java.util.function.Function)}, with the capacity replaced by {@code capacity} unless it is
     * null; the capacity is checked ({@link #checkCapacity}) before anything is read.
     */
    public static MmapInstance read(String argument, java.util.function.Function<String, Graph> graphs,
                                    Long capacity) {
        checkCapacity(capacity);
        MmapInstance in = read(argument, graphs);
        return capacity == null ? in : in.withCapacity(capacity);
    }

    /**
     * Checks a fast-memory capacity given as {@code --capacity} (null: none): a byte count from 0 to 2^53.
     *
     * @throws IllegalArgumentException naming the rule
     */
    public static void checkCapacity(Long capacity) {
        if (capacity != null && capacity < 0) {
            throw new IllegalArgumentException("--capacity must be >= 0, got " + capacity);
        }
        String problem = capacity == null ? null : dev.memplan.model.ByteRange.problem(capacity, "--capacity");
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** True for a name of the form {@code gen:mmap:N[:SEED]}. */
    public static boolean isGeneratedName(String text) {
        return text.startsWith(GENERATED_PREFIX);
    }

    /**
     * The generated program of that name.
     *
     * @throws IllegalArgumentException when the name is malformed or N is outside 1..1,000,000
     */
    public static MmapInstance generated(String name) {
        String[] parts = name.substring(GENERATED_PREFIX.length()).split(":");
        try {
            if (parts.length < 1 || parts.length > 2) {
                throw new NumberFormatException();
            }
            int n = Integer.parseInt(parts[0]);
            long seed = parts.length == 2 ? Long.parseLong(parts[1]) : 1;
            if (n < 1 || n > MAX_BUFFERS) {
                throw new IllegalArgumentException("'" + name + "': the number of buffers must be in 1.." + MAX_BUFFERS);
            }
            return random(seed, n);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + name + "' is not a generated program name: use gen:mmap:N[:SEED]"
                    + " with N buffers");
        }
    }

    /**
     * A seeded random program of exactly {@code buffers} buffers, with the default cost model. Each instruction
     * writes one new tensor and reads one to three: the previous instruction's output (likelier), a tensor of the
     * last 16 instructions, or a fresh parameter. Sizes are log-uniform in 256 B..64 KiB. About one output in ten
     * shares an alias group with a later output that starts after its live range ends (a double buffer), so
     * aliasing, and Drop-backups, occur. Capacity: twice the largest working set of one instruction.
     */
    public static MmapInstance random(long seed, int buffers) {
        Random rnd = new Random(seed);
        CostModel cost = CostModel.DEFAULT;
        List<long[]> uses = new ArrayList<>();   // {tensor, time, output?1:0}
        List<Long> tensorSize = new ArrayList<>();
        List<Integer> producedAt = new ArrayList<>();
        int time = 0;
        while (uses.size() < buffers) {
            int reads = 1 + rnd.nextInt(3);
            List<Integer> read = new ArrayList<>();
            for (int r = 0; r < reads && uses.size() + read.size() < buffers - 1; r++) {
                int x;
                double u = rnd.nextDouble();
                if (time > 0 && (u < 0.5 || r == 0 && u < 0.7)) {
                    x = time - 1 < producedAt.size() ? indexProducedAt(producedAt, time - 1) : -1;
                } else if (time > 0 && u < 0.85) {
                    x = indexProducedAt(producedAt, Math.max(0, time - 1 - rnd.nextInt(16)));
                } else {
                    x = -1;
                }
                if (x < 0) {
                    x = tensorSize.size();
                    tensorSize.add(size(rnd));
                    producedAt.add(-1);
                }
                if (!read.contains(x)) {
                    read.add(x);
                }
            }
            for (int x : read) {
                uses.add(new long[] {x, time, 0});
            }
            if (uses.size() < buffers) {
                int x = tensorSize.size();
                tensorSize.add(size(rnd));
                producedAt.add(time);
                uses.add(new long[] {x, time, 1});
            }
            time++;
        }
        int instructions = time;
        int[] lastUse = new int[tensorSize.size()];
        for (long[] u : uses) {
            lastUse[(int) u[0]] = Math.max(lastUse[(int) u[0]], (int) u[1]);
        }
        long[] supply = new long[instructions];
        long[] workingSet = new long[instructions];
        int[] alias = new int[uses.size()];
        Arrays.fill(alias, -1);
        int[] liveFirst = new int[uses.size()];
        int[] liveLast = new int[uses.size()];
        for (int i = 0; i < uses.size(); i++) {
            int x = (int) uses.get(i)[0];
            int t = (int) uses.get(i)[1];
            boolean output = uses.get(i)[2] == 1;
            int p = producedAt.get(x);
            liveFirst[i] = output ? t : p < 0 ? 0 : Math.min(p + 1, t);
            liveLast[i] = output ? Math.max(t, lastUse[x]) : t;
            supply[t] += cost.fast(tensorSize.get(x));
            workingSet[t] += tensorSize.get(x);
        }
        int nextAlias = 0;
        for (int i = 0; i < uses.size(); i++) {
            if (uses.get(i)[2] == 1 && alias[i] < 0 && rnd.nextInt(10) == 0) {
                for (int j = i + 1; j < uses.size(); j++) {
                    if (uses.get(j)[2] == 1 && alias[j] < 0 && liveFirst[j] > liveLast[i]) {
                        alias[i] = nextAlias;
                        alias[j] = nextAlias++;
                        break;
                    }
                }
            }
        }
        List<MmapBuffer> list = new ArrayList<>(uses.size());
        for (int i = 0; i < uses.size(); i++) {
            long s = tensorSize.get((int) uses.get(i)[0]);
            list.add(new MmapBuffer((int) uses.get(i)[0], alias[i], s, uses.get(i)[2] == 1, (int) uses.get(i)[1],
                    liveFirst[i], liveLast[i], cost.demand(s), cost.benefit(s)));
        }
        long capacity = 2 * Arrays.stream(workingSet).max().orElse(1);
        return new MmapInstance("gen:mmap:" + buffers + ":" + seed, capacity, supply, list);
    }

    private static int indexProducedAt(List<Integer> producedAt, int time) {
        for (int x = producedAt.size() - 1; x >= 0; x--) {
            if (producedAt.get(x) == time) {
                return x;
            }
            if (producedAt.get(x) >= 0 && producedAt.get(x) < time) {
                break;
            }
        }
        return -1;
    }

    private static long size(Random rnd) {
        return Math.round(Math.pow(2, 8 + rnd.nextDouble() * 8));
    }
}
