package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** gen:heap: the shape docs/graphs.md promises (a real trace's: thousands live at once, 2 B to 256 MiB). */
class HeapTraceTest {
    @Test
    void theShapeOfARealTraceOfTwentyEightThousandBuffers() {
        BufferSet set = GeneratedTraces.of("gen:heap:28526");
        assertEquals(28_526, set.size());
        long smallest = Long.MAX_VALUE;
        long largest = 0;
        long[][] events = new long[2 * set.size()][];
        for (int i = 0; i < set.size(); i++) {
            Buffer b = set.get(i);
            smallest = Math.min(smallest, b.size());
            largest = Math.max(largest, b.size());
            assertTrue(b.lower() < b.upper());
            events[2 * i] = new long[] {b.lower(), 1};
            events[2 * i + 1] = new long[] {b.upper(), -1};
        }
        // Ends before starts at the same time: [lower, upper) lifetimes.
        Arrays.sort(events, (x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        int live = 0;
        int most = 0;
        for (long[] e : events) {
            live += (int) e[1];
            most = Math.max(most, live);
        }
        assertTrue(most >= 2_500 && most <= 4_000, "most live at once: " + most);
        assertTrue(smallest <= 16, "smallest " + smallest);
        assertTrue(largest >= 128L << 20 && largest <= 256L << 20, "largest " + largest);
    }

    @Test
    void theSameNameGivesTheSameTraceAndTheSeedAnother() {
        BufferSet a = GeneratedTraces.of("gen:heap:1000:7");
        assertEquals(a.buffers(), GeneratedTraces.of("gen:heap:1000:7").buffers());
        assertTrue(!a.buffers().equals(GeneratedTraces.of("gen:heap:1000:8").buffers()));
        assertEquals(a.buffers(), HeapTrace.generate(1000, 7).buffers());
    }

    @Test
    void malformedNamesSayTheForm() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GeneratedTraces.of("gen:heap:x"))
                .getMessage().contains("gen:heap:N[:SEED]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GeneratedTraces.of("gen:heap:99"))
                .getMessage().contains("100..1000000"));
        assertTrue(GeneratedTraces.of("gen:trace:100").size() == 100, "gen:trace is still the training step");
    }

    /** Both kinds of generated trace share one name parser: the same form, bounds and messages but for the kind. */
    @Test
    void bothKindsOfTraceNameAreParsedAlike() {
        assertEquals("'gen:trace:x' is not a generated trace name: use gen:trace:N[:SEED] with N buffers (100..1000000)",
                assertThrows(IllegalArgumentException.class, () -> GeneratedTraces.of("gen:trace:x")).getMessage());
        assertEquals("'gen:heap:1:2:3' is not a generated heap trace name: use gen:heap:N[:SEED] with N buffers"
                + " (100..1000000)", assertThrows(IllegalArgumentException.class,
                        () -> GeneratedTraces.of("gen:heap:1:2:3")).getMessage());
        assertEquals("'gen:trace:1000001': the number of buffers must be 100..1000000",
                assertThrows(IllegalArgumentException.class, () -> GeneratedTraces.of("gen:trace:1000001")).getMessage());
        assertEquals(GeneratedTraces.of("gen:trace:100").buffers(), GeneratedTraces.of("gen:trace:100:1").buffers(),
                "the seed is 1 when not given");
    }

    /** The sizes the zoo's table and import print ({@link GraphSizes}): fig1 has no parameters. */
    @Test
    void graphSizesSplitActivationsFromParameters() {
        dev.memplan.model.Graph g = Examples.graph("params");
        GraphSizes sizes = GraphSizes.of(g);
        assertEquals(g.tensors().stream().mapToLong(dev.memplan.model.Tensor::size).sum(),
                sizes.activationBytes() + sizes.parameterBytes());
        assertTrue(sizes.parameterBytes() > 0);
        assertTrue(sizes.minimumActivations() <= sizes.minimumAll());
        assertEquals(0, GraphSizes.of(Examples.graph("fig1")).parameterBytes());
    }
}
