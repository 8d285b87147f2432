package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import dev.memplan.model.io.RecomputeExample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memplan check} on plans with recomputes (memplan-plan/2). */
class CheckCommandTest {
    @TempDir
    Path dir;

    /** a (cost 7) writes y, read by b at 1 and by c at 3; a runs again at 2 instead of keeping y. */
    private Path graph() throws IOException {
        Path file = dir.resolve("again.json");
        Files.writeString(file, RecomputeExample.graphJson());
        return file;
    }

    private Path plan(Map<String, List<Segment>> segments, List<String> schedule) {
        Path file = dir.resolve("again.plan.json");
        PlanJson.write(new Plan("again", TensorSetting.ALL, 32, new Schedule(schedule), segments, null, null), file);
        return file;
    }

    private static Map<String, List<Segment>> recomputing() {
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 2, 0)));
        s.put("y", List.of(Segment.created(0, 1, 4), Segment.recomputed(2, 3, 4)));
        s.put("z", List.of(Segment.created(1, 3, 16)));
        s.put("u", List.of(Segment.created(3, 3, 0)));
        return s;
    }

    @Test
    void reportsRecomputesAndTheirCost() throws IOException {
        Path plan = plan(recomputing(), List.of("a", "b", "a", "c"));
        assertTrue(Files.readString(plan).contains("\"format\": \"memplan-plan/2\""));
        MainTest.Result r = MainTest.run("check", graph().toString(), plan.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("VALID"), r.out());
        assertTrue(r.out().matches("(?s).*\\nrecomputes\\s+1\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\nrecompute cost\\s+7\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\nnon-compulsory\\s+0\\n.*"), r.out());
    }

    @Test
    void aBrokenRecomputeIsNamed() throws IOException {
        Map<String, List<Segment>> kept = recomputing();
        kept.put("y", List.of(Segment.created(0, 3, 4)));
        MainTest.Result r = MainTest.run("check", graph().toString(),
                plan(kept, List.of("a", "b", "a", "c")).toString());
        assertEquals(ExitCode.NO.code(), r.code(), r.out() + r.err());
        assertTrue(r.out().contains("siblings: 'a' runs again at timestep 2 but its output 'y' has no recomputed"
                + " segment starting there"), r.out());
        assertTrue(r.out().contains("through-recompute: tensor 'y': segment [0, 3] continues through timestep 2"),
                r.out());
    }

    @Test
    void withoutRecomputesTheReportIsAsBefore() throws IOException {
        Map<String, List<Segment>> s = recomputing();
        s.put("x", List.of(Segment.loaded(0, 0, 0)));
        s.put("y", List.of(Segment.created(0, 2, 4)));
        s.put("z", List.of(Segment.created(1, 2, 16)));
        s.put("u", List.of(Segment.created(2, 2, 0)));
        Path plan = plan(s, List.of("a", "b", "c"));
        assertTrue(Files.readString(plan).contains("\"format\": \"memplan-plan/1\""));
        MainTest.Result r = MainTest.run("check", graph().toString(), plan.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertFalse(r.out().contains("recompute"), r.out());
    }

    @Test
    void aRecomputeInAVersionOneFileIsAUserError() throws IOException {
        Path plan = plan(recomputing(), List.of("a", "b", "a", "c"));
        Files.writeString(plan, Files.readString(plan).replace("memplan-plan/2", "memplan-plan/1"));
        MainTest.Result r = MainTest.run("check", graph().toString(), plan.toString());
        assertEquals(ExitCode.USER_ERROR.code(), r.code(), r.out() + r.err());
        assertEquals("memplan: error: " + plan + ": $.schedule[2]: operator 'a' is named again (first at"
                + " $.schedule[0]); a memplan-plan/1 schedule runs each operator once, recomputes need memplan-plan/2",
                r.err().strip());
    }
}
