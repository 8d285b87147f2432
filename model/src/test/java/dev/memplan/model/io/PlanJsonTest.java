package dev.memplan.model.io;

import static dev.memplan.model.io.FormatErrors.assertFormatError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Traffic;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanJsonTest {
    private static final String S = "<string>";

    private static Plan sample(Traffic traffic, SolverInfo solver) {
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        segments.put("z.out", List.of(Segment.created(2, 2, 0)));
        segments.put("conv1.out", List.of(Segment.created(0, 1, 0), Segment.loaded(2, 3, 4096)));
        segments.put("x", List.of(Segment.loaded(0, 0, 1L << 40)));
        return new Plan("resnet50", TensorSetting.ALL, 1048576, new Schedule(List.of("conv1", "pool1", "z", "fc")),
                segments, traffic, solver);
    }

    @Test
    void roundTripWithTrafficAndSolver() {
        Plan plan = sample(new Traffic(10, 20, 30, 40), new SolverInfo("cosma/cp-sat", SolveStatus.FEASIBLE, 12.5, 7L));
        Plan back = PlanJson.read(PlanJson.toJson(plan), S);
        assertEquals(plan, back);
        assertEquals(List.of("z.out", "conv1.out", "x"), List.copyOf(back.segments().keySet()));
    }

    @Test
    void roundTripWithoutTrafficSolverOrBound(@TempDir Path tmp) {
        Plan plain = sample(null, null);
        Path file = tmp.resolve("p.json");
        PlanJson.write(plain, file);
        Plan back = PlanJson.read(file);
        assertEquals(plain, back);
        assertNull(back.traffic());
        assertNull(back.solver());

        Plan noBound = sample(null, new SolverInfo("default/belady", SolveStatus.HEURISTIC, 0.0, null));
        String json = PlanJson.toJson(noBound);
        assertTrue(!json.contains("bound") && !json.contains("traffic"), json);
        assertEquals(noBound, PlanJson.read(json, S));
    }

    @Test
    void writesOneTensorPerLine() {
        String json = PlanJson.toJson(sample(Traffic.ZERO, null));
        assertTrue(json.contains("\n    {\"name\": \"conv1.out\", \"segments\": [{\"start\": 0, \"end\": 1, \"offset\": 0, "
                + "\"origin\": \"created\"}, {\"start\": 2, \"end\": 3, \"offset\": 4096, \"origin\": \"loaded\"}]},\n"), json);
        assertTrue(json.contains("\"traffic\": {\"compulsory\": 0, \"nonCompulsory\": 0, \"loads\": 0, \"spills\": 0}"), json);
    }

    @Test
    void readsTheExampleOfTheContract() {
        Plan plan = PlanJson.read("""
                {"format": "memplan-plan/1", "graph": "resnet50", "setting": "activations", "budget": 1048576,
                 "schedule": ["conv1", "pool1"],
                 "tensors": [{"name": "conv1.out", "segments": [{"start": 0, "end": 3, "offset": 0, "origin": "created"},
                                                                {"start": 9, "end": 9, "offset": 4096, "origin": "loaded"}]}],
                 "traffic": {"compulsory": 0, "nonCompulsory": 0, "loads": 0, "spills": 0},
                 "solver": {"name": "cosma", "status": "OPTIMAL", "seconds": 0.0, "bound": 0}}
                """, S);
        assertEquals(TensorSetting.ACTIVATIONS, plan.setting());
        assertEquals(List.of(Segment.created(0, 3, 0), Segment.loaded(9, 9, 4096)), plan.segmentsOf("conv1.out"));
        assertEquals(new SolverInfo("cosma", SolveStatus.OPTIMAL, 0.0, 0L), plan.solver());
        assertEquals(Traffic.ZERO, plan.traffic());
    }

    @Test
    void readsTheVersionTwoExampleOfTheContract() {
        Plan plan = PlanJson.read(RecomputeExample.planJson(), S);
        assertEquals(List.of(Segment.created(0, 1, 4), Segment.recomputed(2, 3, 4)), plan.segmentsOf("y"));
        assertEquals(1, plan.schedule().recomputes());
        assertEquals(new Traffic(5, 0, 4, 0, 1, 7), plan.traffic());
        assertEquals(PlanJson.FORMAT_2, PlanJson.formatOf(plan));
    }

    @Test
    void acceptsTheLongSettingNameAndNullOptionalParts() {
        Plan plan = PlanJson.read(doc("[]").replace("\"activations\"", "\"activations+parameters\"")
                .replace("}\n", ", \"traffic\": null, \"solver\": null}"), S);
        assertEquals(TensorSetting.ALL, plan.setting());
        assertNull(plan.traffic());
    }

    /** conv1 runs again at 3 and makes conv1.out again; pool1 and z read it at 1 and 2, fc at 3. */
    private static Plan recomputing(Traffic traffic) {
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        segments.put("conv1.out", List.of(Segment.created(0, 2, 0), Segment.recomputed(3, 4, 0)));
        segments.put("x", List.of(Segment.loaded(0, 0, 64), Segment.loaded(3, 3, 64)));
        return new Plan("resnet50", TensorSetting.ACTIVATIONS, 1048576,
                new Schedule(List.of("conv1", "pool1", "z", "conv1", "fc")), segments, traffic, null);
    }

    @Test
    void planWithoutRecomputesIsWrittenAsVersionOne() {
        String json = PlanJson.toJson(sample(new Traffic(10, 20, 30, 40), null));
        assertTrue(json.contains("\"format\": \"memplan-plan/1\""), json);
        assertTrue(!json.contains("recompute"), json);
        assertEquals(PlanJson.FORMAT_1, PlanJson.formatOf(sample(null, null)));
    }

    @Test
    void roundTripWithRecomputes(@TempDir Path tmp) {
        Plan plan = recomputing(new Traffic(8, 16, 32, 0, 1, 1200));
        String json = PlanJson.toJson(plan);
        assertTrue(json.contains("\"format\": \"memplan-plan/2\""), json);
        assertTrue(json.contains("\"schedule\": [\"conv1\", \"pool1\", \"z\", \"conv1\", \"fc\"]"), json);
        assertTrue(json.contains("{\"start\": 3, \"end\": 4, \"offset\": 0, \"origin\": \"recomputed\"}"), json);
        assertTrue(json.contains("\"traffic\": {\"compulsory\": 8, \"nonCompulsory\": 16, \"loads\": 32, "
                + "\"spills\": 0, \"recomputes\": 1, \"recomputeCost\": 1200}"), json);
        assertEquals(plan, PlanJson.read(json, S));
        Path file = tmp.resolve("p.json");
        PlanJson.write(recomputing(null), file);
        assertEquals(recomputing(null), PlanJson.read(file));
    }

    @Test
    void versionTwoWithoutRecomputesReadsAsTheSamePlan() {
        Plan plan = sample(new Traffic(10, 20, 30, 40), null);
        String two = PlanJson.toJson(plan).replace("memplan-plan/1", "memplan-plan/2")
                .replace("\"spills\": 40}", "\"spills\": 40, \"recomputes\": 0, \"recomputeCost\": 0}");
        assertEquals(plan, PlanJson.read(two, S));
    }

    @Test
    void recomputesNeedVersionTwo() {
        String two = PlanJson.toJson(recomputing(new Traffic(8, 16, 32, 0, 1, 1200)));
        String one = two.replace("memplan-plan/2", "memplan-plan/1");
        assertFormatError(() -> PlanJson.read(one, S), S, "$.schedule[3]", "operator 'conv1' is named again (first"
                + " at $.schedule[0]); a memplan-plan/1 schedule runs each operator once, recomputes need memplan-plan/2");
        String oneSchedule = one.replace("\"conv1\", \"fc\"]", "\"fc\"]");
        assertFormatError(() -> PlanJson.read(oneSchedule, S), S, "$.tensors[0].segments[1].origin",
                "origin 'recomputed' needs memplan-plan/2; a memplan-plan/1 segment is created or loaded");
        String oneTraffic = PlanJson.toJson(sample(new Traffic(1, 2, 3, 4), null))
                .replace("\"spills\": 4}", "\"spills\": 4, \"recomputes\": 0}");
        assertFormatError(() -> PlanJson.read(oneTraffic, S), S, "$.traffic.recomputes",
                "field 'recomputes' needs memplan-plan/2; a memplan-plan/1 traffic has compulsory, nonCompulsory, loads,"
                        + " spills");
    }

    @Test
    void malformedVersionTwo() {
        String two = PlanJson.toJson(recomputing(new Traffic(8, 16, 32, 0, 1, 1200)));
        // pool1 runs at 1 for the first time: nothing is recomputed there.
        assertFormatError(() -> PlanJson.read(two.replace("{\"start\": 3, \"end\": 4, \"offset\": 0, \"origin\": "
                + "\"recomputed\"}", "{\"start\": 1, \"end\": 4, \"offset\": 0, \"origin\": \"recomputed\"}"), S), S,
                "$.tensors[0].segments[1].start", "a recomputed segment starts at a recompute, a later run of an "
                        + "operator; at timestep 1 'pool1' runs for the first time");
        assertFormatError(() -> PlanJson.read(two.replace("{\"start\": 3, \"end\": 4, \"offset\": 0, \"origin\": "
                + "\"recomputed\"}", "{\"start\": 5, \"end\": 5, \"offset\": 0, \"origin\": \"recomputed\"}"), S), S,
                "$.tensors[0].segments[1].start", "timestep 5 is outside the schedule (0..4)");
        assertFormatError(() -> PlanJson.read(two.replace("\"recomputed\"", "\"redone\""), S), S,
                "$.tensors[0].segments[1].origin", "unknown origin 'redone'; expected created, loaded or recomputed");
        assertFormatError(() -> PlanJson.read(two.replace(", \"recomputeCost\": 1200", ""), S), S,
                "$.traffic.recomputeCost", "missing field 'recomputeCost'");
        assertFormatError(() -> PlanJson.read(two.replace("\"recomputes\": 1", "\"recomputes\": 1.5"), S), S,
                "$.traffic.recomputes", "recomputes must be an integer number of runs");
        assertFormatError(() -> PlanJson.read(two.replace("memplan-plan/2", "memplan-plan/3"), S), S, "$.format",
                "unknown format 'memplan-plan/3'; this reader understands \"memplan-plan/1\" or \"memplan-plan/2\" only");
    }

    @Test
    void nonFiniteSecondsCannotBeWritten() {
        Plan plan = sample(null, new SolverInfo("x", SolveStatus.UNKNOWN, Double.NaN, null));
        assertThrows(IllegalArgumentException.class, () -> PlanJson.toJson(plan));
    }

    private static String doc(String tensors) {
        return "{\"format\": \"memplan-plan/1\", \"graph\": \"g\", \"setting\": \"activations\", \"budget\": 64, "
                + "\"schedule\": [\"a\"], \"tensors\": " + tensors + "}\n";
    }

    private static String segment(String start, String end, String offset, String origin) {
        return "[{\"name\": \"t\", \"segments\": [{\"start\": 0, \"end\": 0, \"offset\": 0, \"origin\": \"created\"}, "
                + "{\"start\": " + start + ", \"end\": " + end + ", \"offset\": " + offset + ", \"origin\": " + origin + "}]}]";
    }

    @Test
    void syntaxAndFormatErrors() {
        assertFormatError(() -> PlanJson.read("{\"format\": \"memplan-plan/1\",\n \"graph\": }", "p.json"), "p.json",
                "line 2, column 11", "invalid JSON");
        assertFormatError(() -> PlanJson.read("{\"format\": \"memplan-graph/1\", \"name\": \"g\"}", "p.json"), "p.json",
                "$.format", "unknown format 'memplan-graph/1'; this reader understands \"memplan-plan/1\"");
        assertFormatError(() -> PlanJson.read("{\"format\": 1}", S), S, "$.format", "unknown format number 1");
    }

    @Test
    void structuralErrorsNameThePath() {
        assertFormatError(() -> PlanJson.read(doc("[]").replace("\"budget\": 64, ", ""), S), S, "$.budget",
                "missing field 'budget'");
        assertFormatError(() -> PlanJson.read(doc("[]").replace("64", "\"64\""), S), S, "$.budget",
                "budget must be an integer number of bytes");
        assertFormatError(() -> PlanJson.read(doc("[]").replace("\"activations\"", "\"weights\""), S), S, "$.setting",
                "unknown tensor setting 'weights'");
        assertFormatError(() -> PlanJson.read(doc(segment("3.5", "4", "0", "\"loaded\"")), S), S,
                "$.tensors[0].segments[1].start", "start must be a timestep (an integer)");
        assertFormatError(() -> PlanJson.read(doc(segment("3000000000", "4", "0", "\"loaded\"")), S), S,
                "$.tensors[0].segments[1].start", "fits a 32-bit integer");
        assertFormatError(() -> PlanJson.read(doc(segment("3", "4", "\"0\"", "\"loaded\"")), S), S,
                "$.tensors[0].segments[1].offset", "offset must be an integer address in bytes");
        assertFormatError(() -> PlanJson.read(doc(segment("3", "4", "0", "\"spilled\"")), S), S,
                "$.tensors[0].segments[1].origin", "unknown origin 'spilled'; expected created or loaded");
        assertFormatError(() -> PlanJson.read(doc("[{\"name\": \"t\", \"segments\": []}, {\"name\": \"t\", \"segments\": []}]"),
                S), S, "$.tensors[1].name", "tensor 't' is listed twice (also tensors[0])");
        assertFormatError(() -> PlanJson.read(doc("[{\"name\": \"t\"}]"), S), S, "$.tensors[0].segments",
                "missing field 'segments'");
        assertFormatError(() -> PlanJson.read(doc("[]").replace("}\n", ", \"schedule2\": []}"), S), S, "$.schedule2",
                "unknown field 'schedule2'");
    }

    @Test
    void trafficAndSolverAreChecked() {
        assertFormatError(() -> PlanJson.read(doc("[]").replace("}\n",
                ", \"traffic\": {\"compulsory\": 0, \"nonCompulsory\": 0, \"loads\": 0}}"), S), S, "$.traffic.spills",
                "missing field 'spills'");
        assertFormatError(() -> PlanJson.read(doc("[]").replace("}\n", ", \"traffic\": [0, 0, 0, 0]}"), S), S,
                "$.traffic", "expected the recorded traffic (a JSON object), found an array");
        assertFormatError(() -> PlanJson.read(doc("[]").replace("}\n",
                ", \"solver\": {\"name\": \"x\", \"status\": \"SOLVED\", \"seconds\": 1}}"), S), S, "$.solver.status",
                "unknown status 'SOLVED'; expected one of OPTIMAL, FEASIBLE, INFEASIBLE, UNKNOWN, HEURISTIC");
        assertFormatError(() -> PlanJson.read(doc("[]").replace("}\n",
                ", \"solver\": {\"name\": \"x\", \"status\": \"OPTIMAL\", \"seconds\": \"1\"}}"), S), S,
                "$.solver.seconds", "seconds must be a number of seconds");
        assertFormatError(() -> PlanJson.read(doc("[]").replace("}\n",
                ", \"solver\": {\"name\": \"x\", \"status\": \"OPTIMAL\", \"seconds\": 1, \"bound\": 0.5}}"), S), S,
                "$.solver.bound", "bound must be an integer bound on the objective");
    }
}
