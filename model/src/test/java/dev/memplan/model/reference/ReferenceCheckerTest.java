package dev.memplan.model.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReferenceCheckerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * op0: x, w -> a; op1: a -> b; op2: b -> c; op3: a, c -> y. x is a host activation (graph input),
   * w a parameter, y the graph output. Alignment 100.
   */
  private static final String GRAPH =
      """
      {"format": "memplan-graph/1", "name": "tiny", "alignment": 100,
       "tensors": [
         {"name": "x", "size": 100, "kind": "activation"},
         {"name": "w", "size": 50,  "kind": "parameter"},
         {"name": "a", "size": 200, "kind": "activation"},
         {"name": "b", "size": 300, "kind": "activation"},
         {"name": "c", "size": 100, "kind": "activation"},
         {"name": "y", "size": 100, "kind": "activation"}],
       "operators": [
         {"name": "op0", "type": "T", "inputs": ["x", "w"], "outputs": ["a"]},
         {"name": "op1", "type": "T", "inputs": ["a"],      "outputs": ["b"]},
         {"name": "op2", "type": "T", "inputs": ["b"],      "outputs": ["c"]},
         {"name": "op3", "type": "T", "inputs": ["a", "c"], "outputs": ["y"]}],
       "outputs": ["y"]}
      """;

  /**
   * A valid plan: a is created at 0, evicted after its use at 1 (spilled) and loaded again at 3.
   * Address map: t0 x[0,100) w[100,150) a[200,400); t1 a[200,400) b[400,700); t2 b[400,700)
   * c[700,800); t3 a[0,200) y[200,300) c[700,800).
   */
  private static final String PLAN =
      """
      {"format": "memplan-plan/1", "graph": "tiny", "setting": "all", "budget": 1000,
       "schedule": ["op0", "op1", "op2", "op3"],
       "tensors": [
         {"name": "x", "segments": [{"start": 0, "end": 0, "offset": 0,   "origin": "loaded"}]},
         {"name": "w", "segments": [{"start": 0, "end": 0, "offset": 100, "origin": "loaded"}]},
         {"name": "a", "segments": [{"start": 0, "end": 1, "offset": 200, "origin": "created"},
                                    {"start": 3, "end": 3, "offset": 0,   "origin": "loaded"}]},
         {"name": "b", "segments": [{"start": 1, "end": 2, "offset": 400, "origin": "created"}]},
         {"name": "c", "segments": [{"start": 2, "end": 3, "offset": 700, "origin": "created"}]},
         {"name": "y", "segments": [{"start": 3, "end": 3, "offset": 200, "origin": "created"}]}]}
      """;

  private static JsonNode graph() throws Exception {
    return JSON.readTree(GRAPH);
  }

  private static ObjectNode plan() throws Exception {
    return (ObjectNode) JSON.readTree(PLAN);
  }

  /** The entry of the plan's "tensors" array for the named tensor. */
  private static ObjectNode tensor(ObjectNode plan, String name) {
    for (JsonNode t : plan.get("tensors")) {
      if (t.get("name").asText().equals(name)) {
        return (ObjectNode) t;
      }
    }
    throw new AssertionError("no tensor " + name);
  }

  private static ObjectNode segment(ObjectNode plan, String name, int index) {
    return (ObjectNode) tensor(plan, name).get("segments").get(index);
  }

  private static ArrayNode segments(ObjectNode plan, String name) {
    return (ArrayNode) tensor(plan, name).get("segments");
  }

  private static Set<String> broken(JsonNode graph, JsonNode plan) {
    ReferenceChecker.Verdict v = ReferenceChecker.check(graph, plan);
    assertEquals(v.brokenRules().isEmpty(), v.valid());
    return v.brokenRules();
  }

  private static void assertBroken(String rule, JsonNode graph, JsonNode plan) {
    ReferenceChecker.Verdict v = ReferenceChecker.check(graph, plan);
    assertFalse(v.valid(), "expected an invalid plan");
    assertTrue(v.brokenRules().contains(rule), "expected " + rule + " in " + v.brokenRules());
  }

  private static void assertOnlyBroken(String rule, JsonNode graph, JsonNode plan) {
    assertEquals(Set.of(rule), broken(graph, plan));
  }

  @Test
  void validPlanWithSpillAndReload() throws Exception {
    ReferenceChecker.Verdict v = ReferenceChecker.check(graph(), plan());
    assertTrue(v.valid(), () -> "broken: " + v.brokenRules());
    assertEquals(Set.of(), v.brokenRules());
    // x (100, used host) + w (50, used host) + y (100, graph output)
    assertEquals(250, v.compulsory());
    // a: one load (200) + one spill (200); x and w: first load is compulsory
    assertEquals(400, v.nonCompulsory());
    // t0: 100+50+200, t1: 200+300, t2: 300+100, t3: 200+100+100
    assertEquals(500, v.peakFootprint());
    assertEquals(800, v.peakAddress());
  }

  @Test
  void activationsSettingDropsParameters() throws Exception {
    ObjectNode plan = plan();
    plan.put("setting", "activations");
    ArrayNode tensors = (ArrayNode) plan.get("tensors");
    tensors.remove(1); // w
    ReferenceChecker.Verdict v = ReferenceChecker.check(graph(), plan);
    assertTrue(v.valid(), () -> "broken: " + v.brokenRules());
    assertEquals(200, v.compulsory());
    assertEquals(400, v.nonCompulsory());
    assertEquals(500, v.peakFootprint()); // t0 is now 100+200; t1 is still 200+300
  }

  @Test
  void extraLoadOfUsedHostTensorIsCharged() throws Exception {
    ObjectNode plan = plan();
    // x is loaded a second time at 1 although nothing reads it there: broken, but still counted
    segments(plan, "x").addObject().put("start", 1).put("end", 1).put("offset", 0)
        .put("origin", "loaded");
    ReferenceChecker.Verdict v = ReferenceChecker.check(graph(), plan);
    assertTrue(v.brokenRules().contains("past-last-use"));
    assertEquals(500, v.nonCompulsory()); // 400 + one extra load of x
  }

  @Test
  void schedule() throws Exception {
    ObjectNode notTopological = plan();
    ArrayNode s1 = notTopological.putArray("schedule");
    s1.add("op1").add("op0").add("op2").add("op3");
    assertBroken("schedule", graph(), notTopological);

    ObjectNode missing = plan();
    missing.putArray("schedule").add("op0").add("op1").add("op2");
    assertBroken("schedule", graph(), missing);

    ObjectNode duplicate = plan();
    duplicate.putArray("schedule").add("op0").add("op1").add("op1").add("op3");
    assertBroken("schedule", graph(), duplicate);

    ObjectNode unknown = plan();
    unknown.putArray("schedule").add("op0").add("op1").add("op2").add("op9");
    assertBroken("schedule", graph(), unknown);
  }

  @Test
  void unknownTensor() throws Exception {
    ObjectNode ghost = plan();
    ObjectNode t = ((ArrayNode) ghost.get("tensors")).addObject();
    t.put("name", "ghost");
    t.putArray("segments").addObject().put("start", 0).put("end", 0).put("offset", 900)
        .put("origin", "loaded");
    assertOnlyBroken("unknown-tensor", graph(), ghost);

    // w is a parameter: in the activations setting it is not part of the graph
    ObjectNode activations = plan();
    activations.put("setting", "activations");
    assertOnlyBroken("unknown-tensor", graph(), activations);
  }

  @Test
  void segmentRange() throws Exception {
    ObjectNode pastEnd = plan();
    segment(pastEnd, "y", 0).put("end", 4);
    assertBroken("segment-range", graph(), pastEnd);

    ObjectNode reversed = plan();
    segment(reversed, "b", 0).put("start", 2).put("end", 1);
    assertBroken("segment-range", graph(), reversed);

    ObjectNode negativeOffset = plan();
    segment(negativeOffset, "x", 0).put("offset", -100);
    assertBroken("segment-range", graph(), negativeOffset);

    ObjectNode negativeStart = plan();
    segment(negativeStart, "x", 0).put("start", -1);
    assertBroken("segment-range", graph(), negativeStart);
  }

  @Test
  void created() throws Exception {
    ObjectNode noCreated = plan();
    segment(noCreated, "b", 0).put("origin", "loaded");
    assertBroken("created", graph(), noCreated);

    ObjectNode hostCreated = plan();
    segment(hostCreated, "x", 0).put("origin", "created");
    assertOnlyBroken("created", graph(), hostCreated);

    ObjectNode twoCreated = plan();
    segment(twoCreated, "a", 1).put("origin", "created");
    assertBroken("created", graph(), twoCreated);

    ObjectNode late = plan(); // c is produced at 2 but created at 3
    segment(late, "c", 0).put("start", 3);
    assertBroken("created", graph(), late);
  }

  @Test
  void beforeCreation() throws Exception {
    ObjectNode early = plan(); // b is produced at 1; its created segment starts at 0
    segment(early, "b", 0).put("start", 0).put("offset", 400);
    assertBroken("before-creation", graph(), early);
  }

  @Test
  void hostCopy() throws Exception {
    // c: created [2,2] then loaded [3,3] is a legal move through host memory...
    ObjectNode move = plan();
    segment(move, "c", 0).put("end", 2);
    segments(move, "c").addObject().put("start", 3).put("end", 3).put("offset", 700)
        .put("origin", "loaded");
    assertEquals(Set.of(), broken(graph(), move));
    // ...but a load at the producer's timestep has no host copy to read
    ObjectNode atCreation = plan();
    segment(atCreation, "a", 1).put("start", 0).put("end", 0).put("offset", 400);
    assertBroken("host-copy", graph(), atCreation);
  }

  @Test
  void segmentOverlap() throws Exception {
    ObjectNode overlap = plan(); // a: created [0,1], loaded [1,3] at another address
    segment(overlap, "a", 1).put("start", 1);
    segment(overlap, "a", 1).put("offset", 0);
    assertBroken("segment-overlap", graph(), overlap);
  }

  @Test
  void residency() throws Exception {
    ObjectNode evictedTooEarly = plan(); // a is read at 1 but its created segment ends at 0
    segment(evictedTooEarly, "a", 0).put("end", 0);
    assertOnlyBroken("residency", graph(), evictedTooEarly);
  }

  @Test
  void pastLastUse() throws Exception {
    ObjectNode tooLong = plan(); // b's last use is at 2
    segment(tooLong, "b", 0).put("end", 3);
    assertOnlyBroken("past-last-use", graph(), tooLong);
  }

  @Test
  void budget() throws Exception {
    ObjectNode tight = plan();
    tight.put("budget", 750); // c occupies [700, 800)
    assertOnlyBroken("budget", graph(), tight);
  }

  @Test
  void addressOverlap() throws Exception {
    ObjectNode clash = plan(); // c at [600, 700) meets b at [400, 700) at t=2
    segment(clash, "c", 0).put("offset", 600);
    assertOnlyBroken("address-overlap", graph(), clash);
  }

  @Test
  void alignment() throws Exception {
    ObjectNode misaligned = plan(); // w at [150, 200): no overlap, but not a multiple of 100
    segment(misaligned, "w", 0).put("offset", 150);
    assertOnlyBroken("alignment", graph(), misaligned);
  }

  /**
   * Instead of spilling a, the plan runs op0 again at 3 (a /2 plan): x and w are loaded again for
   * it, a is made again at 3 and read by op3 at 4. Address map: t0 x[0,100) w[100,150) a[200,400);
   * t1 a b[400,700); t2 b c[700,800); t3 x w a c; t4 a c y[0,100).
   */
  private static final String RECOMPUTING =
      """
      {"format": "memplan-plan/2", "graph": "tiny", "setting": "all", "budget": 1000,
       "schedule": ["op0", "op1", "op2", "op0", "op3"],
       "tensors": [
         {"name": "x", "segments": [{"start": 0, "end": 0, "offset": 0, "origin": "loaded"},
                                    {"start": 3, "end": 3, "offset": 0, "origin": "loaded"}]},
         {"name": "w", "segments": [{"start": 0, "end": 0, "offset": 100, "origin": "loaded"},
                                    {"start": 3, "end": 3, "offset": 100, "origin": "loaded"}]},
         {"name": "a", "segments": [{"start": 0, "end": 1, "offset": 200, "origin": "created"},
                                    {"start": 3, "end": 4, "offset": 200, "origin": "recomputed"}]},
         {"name": "b", "segments": [{"start": 1, "end": 2, "offset": 400, "origin": "created"}]},
         {"name": "c", "segments": [{"start": 2, "end": 4, "offset": 700, "origin": "created"}]},
         {"name": "y", "segments": [{"start": 4, "end": 4, "offset": 0, "origin": "created"}]}]}
      """;

  @Test
  void validPlanWithARecompute() throws Exception {
    ObjectNode graph = (ObjectNode) graph();
    ((ObjectNode) graph.get("operators").get(0)).put("cost", 9);
    ReferenceChecker.Verdict v = ReferenceChecker.check(graph, JSON.readTree(RECOMPUTING));
    assertTrue(v.valid(), () -> "broken: " + v.brokenRules());
    assertEquals(250, v.compulsory());
    // x and w loaded twice: the second loads (100 + 50); a is recomputed, not spilled
    assertEquals(150, v.nonCompulsory());
    assertEquals(1, v.recomputes());
    assertEquals(9, v.recomputeCost());
    assertEquals(500, v.peakFootprint()); // t1: 200 + 300; t3: 100 + 50 + 200 + 100
    assertEquals(800, v.peakAddress());
  }

  @Test
  void recomputeRules() throws Exception {
    ObjectNode dropped = (ObjectNode) JSON.readTree(RECOMPUTING); // op0 runs again but makes no a
    segments(dropped, "a").remove(1);
    assertEquals(Set.of("siblings", "residency"), broken(graph(), dropped));
    ObjectNode kept = (ObjectNode) JSON.readTree(RECOMPUTING); // a kept from 0 through the recompute
    segments(kept, "a").remove(1);
    segment(kept, "a", 0).put("end", 4);
    assertEquals(Set.of("siblings", "through-recompute"), broken(graph(), kept));
    ObjectNode wrongRun = (ObjectNode) JSON.readTree(RECOMPUTING); // b "recomputed" where op2 runs
    segment(wrongRun, "b", 0).put("origin", "recomputed");
    assertEquals(Set.of("created", "earlier-run"), broken(graph(), wrongRun));
    segment(wrongRun, "b", 0).put("start", 2);
    assertEquals(Set.of("created", "recompute-start"), broken(graph(), wrongRun));
    ObjectNode host = (ObjectNode) JSON.readTree(RECOMPUTING); // x has no producer to run again
    segment(host, "x", 1).put("origin", "recomputed");
    assertOnlyBroken("recompute-start", graph(), host);
  }
}
