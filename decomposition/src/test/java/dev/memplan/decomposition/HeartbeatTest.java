package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Thousands of part lines become a few: the first, then the latest with a count when a stage line comes. */
class HeartbeatTest {
    @Test
    void routineLinesAreThrottledAndStageLinesAlwaysShown() {
        StringWriter text = new StringWriter();
        Heartbeat h = new Heartbeat(new PrintWriter(text));
        h.accept("dnc: 5000 parts");
        for (int k = 1; k <= 5000; k++) {
            h.accept("dnc: part " + k + "/5000 (3 operators): its starting plan (no time left)");
        }
        h.accept("dnc: stitched, traffic 7");
        String[] lines = text.toString().split("\n");
        assertEquals(4, lines.length, text.toString());
        assertEquals("dnc: 5000 parts", lines[0]);
        assertTrue(lines[1].startsWith("dnc: part 1/5000"), lines[1]);
        assertTrue(lines[2].startsWith("dnc: part 5000/5000") && lines[2].endsWith("(4998 such lines before it not shown)"),
                lines[2]);
        assertEquals("dnc: stitched, traffic 7", lines[3]);
    }

    /** Divide and conquer on a recompute plan's runs has routine lines too, behind the recompute step's prefix. */
    @Test
    void theLinesOfDivideAndConquerOnARecomputePlansRunsAreRoutineToo() {
        assertTrue(Heartbeat.routine(RecomputeReplan.PROGRESS + "dnc: part 3/8 (30 operators) OPTIMAL, traffic 0"));
        assertTrue(Heartbeat.routine(RecomputeReplan.PROGRESS + "dnc: window 45..74 improved the plan to 10135552"));
        assertTrue(!Heartbeat.routine(RecomputeReplan.PROGRESS + "dnc: stitched, traffic 7")
                && !Heartbeat.routine("recompute: the joint program gave FEASIBLE"));
    }
}
