package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memplan.model.mmap.Action;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.Mapping;
import dev.memplan.model.mmap.MmapBuffer;
import dev.memplan.model.mmap.MmapInstance;
import java.util.List;
import org.junit.jupiter.api.Test;

class MmapJsonTest {

    private static final String GOOD = """
            {"format": "memplan-mmap/1", "name": "p", "capacity": 8, "supply": [3, 4],
             "buffers": [
               {"tensor": 0, "kind": "output", "time": 0, "live": [0, 1], "size": 2, "demand": 1, "benefit": 5},
               {"tensor": 0, "alias": 3, "kind": "input", "time": 1, "live": [1, 1], "size": 2, "demand": 1, "benefit": 6}]}
            """;

    @Test
    void roundTrip() {
        MmapInstance in = MmapJson.read(GOOD, "p.json");
        assertEquals(2, in.size());
        assertEquals(new MmapBuffer(0, 3, 2, false, 1, 1, 1, 1, 6), in.buffer(1));
        assertEquals(-1, in.buffer(0).alias());
        MmapInstance again = MmapJson.read(MmapJson.toJson(in), "again.json");
        assertEquals(in.buffers(), again.buffers());
        assertEquals(7, again.supplySum(0, 1));
        Mapping m = new Mapping(List.of(new Decision(Action.COPY, 0, 1, 0), Decision.DROP));
        String text = MmapJson.mappingToJson(in, m, "greedy", "HEURISTIC", 11);
        assertEquals(m, MmapJson.readMapping(text, "m.json"));
    }

    private static FormatException bad(String json) {
        return assertThrows(FormatException.class, () -> MmapJson.read(json, "bad.json"));
    }

    @Test
    void badInputNamesFilePlaceAndProblem() {
        FormatException e = bad(GOOD.replace("memplan-mmap/1", "memplan-graph/1"));
        assertEquals("$.format", e.where());
        e = bad(GOOD.replace("\"live\": [1, 1]", "\"live\": [0, 0]"));
        assertEquals("$.buffers[1].live", e.where());
        e = bad(GOOD.replace("\"kind\": \"input\"", "\"kind\": \"operand\""));
        assertEquals("$.buffers[1].kind", e.where());
        e = bad(GOOD.replace("[3, 4]", "[3, -4]"));
        assertEquals("$.supply[1]", e.where());
        e = bad(GOOD.replace("\"size\": 2, \"demand\": 1, \"benefit\": 5", "\"size\": 2, \"demand\": 1, \"gain\": 5"));
        assertEquals("$.buffers[0].gain", e.where());
        e = bad(GOOD.replace("\"time\": 1", "\"time\": 7"));
        assertEquals("$.buffers[1].time", e.where());
        assertEquals("bad.json", e.file());
        e = assertThrows(FormatException.class, () -> MmapJson.readMapping(
                "{\"format\": \"memplan-mmap-mapping/1\", \"decisions\": [{\"action\": \"keep\"}]}", "m.json"));
        assertEquals("$.decisions[0].action", e.where());
    }
}
