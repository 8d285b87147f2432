package dev.memplan.model.io;

import static dev.memplan.model.io.FormatErrors.assertFormatError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.ByteRange;
import org.junit.jupiter.api.Test;

/** Issue 12, item 2: every reader refuses byte counts beyond {@link ByteRange#MAX} with a located message. */
class ByteRangeReadersTest {
    private static final String BIG = Long.toString(Long.MAX_VALUE);
    private static final String ABOVE = Long.toString(ByteRange.MAX + 1);

    private static String graph(String ySize) {
        return "{\"format\": \"memplan-graph/1\", \"name\": \"g\", \"tensors\": [{\"name\": \"x\", \"size\": 8, "
                + "\"kind\": \"activation\"}, {\"name\": \"y\", \"size\": " + ySize + ", \"kind\": \"activation\"}], "
                + "\"operators\": [{\"name\": \"A\", \"inputs\": [\"x\"], \"outputs\": [\"y\"]}], \"outputs\": [\"y\"]}";
    }

    private static String plan(String budget, String offset) {
        return "{\"format\": \"memplan-plan/1\", \"graph\": \"g\", \"setting\": \"activations\", \"budget\": " + budget
                + ", \"schedule\": [\"A\"], \"tensors\": [{\"name\": \"y\", \"segments\": [{\"start\": 0, \"end\": 0, "
                + "\"offset\": " + offset + ", \"origin\": \"created\"}]}]}";
    }

    @Test
    void graphSizesAndTheirSum() {
        assertFormatError(() -> GraphJson.read(graph(BIG), "g.json"), "g.json", "$.tensors[1].size",
                "the size of tensor 'y' is " + BIG + ", above 2^53");
        assertFormatError(() -> GraphJson.read(graph(Long.toString(ByteRange.MAX - 7)), "g.json"), "g.json",
                "$.tensors[1].size", "sum to " + ABOVE);
        assertEquals(ByteRange.MAX - 8, GraphJson.read(graph(Long.toString(ByteRange.MAX - 8)), "g.json").size(1));
    }

    @Test
    void planBudgetAndOffsets() {
        assertFormatError(() -> PlanJson.read(plan(BIG, "0"), "p.json"), "p.json", "$.budget",
                "budget is " + BIG + ", above 2^53");
        assertFormatError(() -> PlanJson.read(plan("48", BIG), "p.json"), "p.json", "$.tensors[0].segments[0].offset",
                "above 2^53");
        assertEquals(ByteRange.MAX, PlanJson.read(plan("48", Long.toString(ByteRange.MAX)), "p.json")
                .segmentsOf("y").get(0).offset());
    }

    @Test
    void cosmaDagSizes() {
        String dag = "{\"name\": \"d\", \"dummy_input_tensors\": [], \"graph_output_tensors\": [\"y\"], "
                + "\"tensor_list\": [\"x\", \"y\"], \"tensor_sizes\": {\"x\": 8, \"y\": " + BIG + "}, "
                + "\"dag\": [{\"name\": \"A\", \"input_nodes\": [], \"input_tensors\": [\"x\"], \"output_tensors\": [\"y\"]}]}";
        assertFormatError(() -> CosmaDagJson.read(dag, "d.json"), "d.json", "$.tensor_sizes.y", "above 2^53");
    }

    @Test
    void miniMallocSizesAlignmentsOffsetsTotalsAndCapacity() {
        assertFormatError(() -> MiniMallocCsv.read("id,lower,upper,size\nb0,0,1," + BIG + "\n", "in.12.csv"),
                "in.12.csv", "line 2, column 'size'", "size is " + BIG + ", above 2^53");
        assertFormatError(() -> MiniMallocCsv.read("id,lower,upper,size\nb0,0,1," + ByteRange.MAX + "\nb1,0,1,1\n",
                "in.csv"), "in.csv", "line 2, column 'size'", "sum to " + (ByteRange.MAX + 1));
        assertFormatError(() -> MiniMallocCsv.read("id,lower,upper,size,alignment\nb0,0,1,4," + ABOVE + "\n",
                "in.csv"), "in.csv", "line 2, column 'alignment'", "above 2^53");
        assertFormatError(() -> MiniMallocCsv.readPlacement("id,lower,upper,size,offset\nb0,0,1,4," + BIG + "\n",
                "out.csv"), "out.csv", "line 2, column 'offset'", "above 2^53");
        assertFormatError(() -> MiniMallocCsv.read("id,lower,upper,size\nb0,0,1,4\n", "in.999999999999999999.csv"),
                "in.999999999999999999.csv", "file name", "the capacity is 999999999999999999, above 2^53");
    }
}
