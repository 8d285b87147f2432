package dev.memplan.model.reference;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An independent, deliberately naive reference implementation of the plan-validity rules and the
 * traffic formula of docs/memory-model.md, for use as a test oracle only.
 *
 * <p>It reads the JSON trees of a {@code memplan-graph/1} file and a {@code memplan-plan/1} or
 * {@code memplan-plan/2} file directly and uses no class of the main source tree. Everything is done by
 * brute force (loops over timesteps and pairs of segments) so that each rule can be checked by reading a
 * few lines. Recomputation (the section "Recomputation"): the schedule is a list of runs, an operator's
 * first run creates and each later run recomputes.
 *
 * <p>Decisions where the contract is open:
 *
 * <ul>
 *   <li>Structurally malformed input (missing or non-integer fields, a segment origin other than
 *       {@code created}/{@code loaded}/{@code recomputed}, an unknown setting, an operator naming a
 *       tensor the graph
 *       does not declare) is not a rule violation: it throws {@link IllegalArgumentException}, as a
 *       file reader would reject it.
 *   <li>A tensor written by several operators: its producer is the earliest scheduled writer; the
 *       timesteps of the other writers must lie inside a segment ("residency"); its last use is the
 *       latest timestep at which an operator reads or writes it.
 *   <li>"host-copy": a loaded segment starting at s of a produced tensor with producer timestep p is
 *       legal iff s &gt; p and some in-range "created" segment of the tensor ended before s. A
 *       produced tensor with no created segment never has a host copy.
 *   <li>Traffic figures (compulsory, nonCompulsory, peakFootprint, peakAddress) count every segment
 *       the plan lists for a tensor of the graph, including segments that break "segment-range";
 *       peakFootprint only looks at timesteps 0 .. T-1. Segments of unknown tensors are ignored
 *       everywhere.
 *   <li>The timesteps are 0 .. T-1 with T = max(n, the schedule's length): a schedule shorter than n
 *       misses an operator and is broken anyway.
 *   <li>"schedule" with runs: every entry names an operator of the graph, every operator runs at least
 *       once, and a run reading a tensor comes after the first run of each of its writers.
 *   <li>Recomputation: the producer's first run creates; a "recomputed" segment must start at a later
 *       run of a writer of its tensor: at a timestep where no writer runs (or for a host tensor)
 *       "recompute-start", at a writer's first run "earlier-run". At every later run r of the producer
 *       the tensor needs a recomputed segment starting at r ("siblings"), and no segment may hold both
 *       r - 1 and r ("through-recompute"). A recomputed segment makes no host copy ("host-copy" still
 *       looks at created segments only). "past-last-use": a recomputed segment may end at its own start
 *       even after the tensor's last use, since the run writes it there.
 *   <li>recomputes = runs of known operators beyond their first; recomputeCost = the sum of their
 *       operators' "cost" field in the graph file (an operator without one costs 0 here).
 * </ul>
 */
public final class ReferenceChecker {

  /** Result: valid flag, the set of rule ids broken, and traffic figures in bytes. */
  public record Verdict(
      boolean valid,
      Set<String> brokenRules,
      long compulsory,
      long nonCompulsory,
      long peakFootprint,
      long peakAddress,
      long recomputes,
      long recomputeCost) {}

  private ReferenceChecker() {}

  /** One segment exactly as the plan writes it. */
  private record Seg(String tensor, long start, long end, long offset, String origin) {
    boolean contains(long t) {
      return start <= t && t <= end;
    }

    boolean isLoaded() {
      return "loaded".equals(origin);
    }

    boolean isCreated() {
      return "created".equals(origin);
    }

    boolean isRecomputed() {
      return "recomputed".equals(origin);
    }
  }

  /**
   * graph = parsed memplan-graph/1 JSON; plan = parsed memplan-plan/1 or /2 JSON. The tensor setting
   * comes from plan.get("setting"): "activations" means drop every tensor of kind "parameter" (and
   * every operator input naming one) before checking; "all" keeps them. Budget B =
   * plan.get("budget").
   */
  public static Verdict check(JsonNode graph, JsonNode plan) {
    Set<String> broken = new TreeSet<>();

    // ---------------------------------------------------------------- setting, budget, alignment
    String setting = requireText(plan.get("setting"), "plan setting");
    boolean dropParameters;
    if (setting.equals("activations")) {
      dropParameters = true;
    } else if (setting.equals("all")) {
      dropParameters = false;
    } else {
      throw new IllegalArgumentException("unknown tensor setting: " + setting);
    }
    long budget = requireLong(plan.get("budget"), "plan budget");
    long alignment = 1;
    JsonNode alignmentNode = graph.get("alignment");
    if (alignmentNode != null && !alignmentNode.isNull()) {
      alignment = requireLong(alignmentNode, "graph alignment");
    }
    if (alignment < 1) {
      throw new IllegalArgumentException("alignment must be >= 1: " + alignment);
    }

    // ---------------------------------------------------------------- tensors of the setting
    Map<String, Long> size = new LinkedHashMap<>();
    Set<String> dropped = new HashSet<>();
    for (JsonNode t : requireArray(graph.get("tensors"), "graph tensors")) {
      String name = requireText(t.get("name"), "tensor name");
      String kind = requireText(t.get("kind"), "tensor kind of " + name);
      if (dropParameters && kind.equals("parameter")) {
        dropped.add(name);
        continue;
      }
      if (size.containsKey(name)) {
        throw new IllegalArgumentException("duplicate tensor " + name);
      }
      size.put(name, requireLong(t.get("size"), "size of " + name));
    }

    // ---------------------------------------------------------------- operators
    List<String> opName = new ArrayList<>();
    List<List<String>> opInputs = new ArrayList<>();
    List<List<String>> opOutputs = new ArrayList<>();
    List<Long> opCost = new ArrayList<>();
    Map<String, Integer> opIndex = new HashMap<>();
    for (JsonNode op : requireArray(graph.get("operators"), "graph operators")) {
      String name = requireText(op.get("name"), "operator name");
      if (opIndex.containsKey(name)) {
        throw new IllegalArgumentException("duplicate operator " + name);
      }
      opIndex.put(name, opName.size());
      opName.add(name);
      opInputs.add(tensorList(op.get("inputs"), name, size, dropped));
      opOutputs.add(tensorList(op.get("outputs"), name, size, dropped));
      JsonNode cost = op.get("cost");
      opCost.add(cost == null || cost.isNull() ? 0 : requireLong(cost, "cost of " + name));
    }
    int n = opName.size();

    Set<String> graphOutputs = new HashSet<>();
    JsonNode outputsNode = graph.get("outputs");
    if (outputsNode != null && !outputsNode.isNull()) {
      graphOutputs.addAll(tensorList(outputsNode, "graph outputs", size, dropped));
    }

    // writers.get(tensor) = indices of operators that write it (empty for host tensors)
    // readers.get(tensor) = indices of operators that read it
    Map<String, List<Integer>> writers = new HashMap<>();
    Map<String, List<Integer>> readers = new HashMap<>();
    for (String tensor : size.keySet()) {
      writers.put(tensor, new ArrayList<>());
      readers.put(tensor, new ArrayList<>());
    }
    for (int o = 0; o < n; o++) {
      for (String out : opOutputs.get(o)) {
        writers.get(out).add(o);
      }
      for (String in : opInputs.get(o)) {
        readers.get(in).add(o);
      }
    }

    // ---------------------------------------------------------------- rule "schedule"
    // runsOf.get(o) = the timesteps at which operator o runs, ascending; firstRun[o] = the first
    List<List<Integer>> runsOf = new ArrayList<>();
    for (int o = 0; o < n; o++) {
      runsOf.add(new ArrayList<>());
    }
    int[] firstRun = new int[n];
    Arrays.fill(firstRun, -1);
    // opAt[t] = the operator running at timestep t, or -1 when the entry is not a known operator
    int[] opAt = new int[0];
    boolean scheduleOk = true;
    long recomputes = 0;
    long recomputeCost = 0;
    JsonNode schedule = plan.get("schedule");
    if (schedule == null || !schedule.isArray()) {
      scheduleOk = false;
    } else {
      opAt = new int[schedule.size()];
      for (int t = 0; t < schedule.size(); t++) {
        JsonNode entry = schedule.get(t);
        Integer o = entry.isTextual() ? opIndex.get(entry.asText()) : null;
        if (o == null) {
          scheduleOk = false; // unknown operator
          opAt[t] = -1;
          continue;
        }
        opAt[t] = o;
        if (firstRun[o] == -1) {
          firstRun[o] = t;
        } else {
          recomputes++;
          recomputeCost += opCost.get(o);
        }
        runsOf.get(o).add(t);
      }
      for (int o = 0; o < n; o++) {
        if (firstRun[o] == -1) {
          scheduleOk = false; // an operator that never runs
        }
      }
    }
    if (scheduleOk) {
      // Every run of a reader comes strictly after the first run of every writer of its input.
      for (int o = 0; o < n; o++) {
        for (String in : opInputs.get(o)) {
          for (int w : writers.get(in)) {
            for (int t : runsOf.get(o)) {
              if (firstRun[w] >= t) {
                scheduleOk = false;
              }
            }
          }
        }
      }
    }
    if (!scheduleOk) {
      broken.add("schedule");
    }
    int timesteps = Math.max(n, opAt.length);

    // ---------------------------------------------------------------- segments
    // all = every segment listed for a tensor of the graph; ok = those that pass "segment-range"
    Map<String, List<Seg>> all = new LinkedHashMap<>();
    Map<String, List<Seg>> ok = new LinkedHashMap<>();
    for (String tensor : size.keySet()) {
      all.put(tensor, new ArrayList<>());
      ok.put(tensor, new ArrayList<>());
    }
    JsonNode planTensors = plan.get("tensors");
    if (planTensors != null && !planTensors.isNull()) {
      for (JsonNode pt : requireArray(planTensors, "plan tensors")) {
        String name = requireText(pt.get("name"), "plan tensor name");
        if (!size.containsKey(name)) {
          broken.add("unknown-tensor");
          continue;
        }
        JsonNode segNodes = pt.get("segments");
        if (segNodes == null || segNodes.isNull()) {
          continue;
        }
        for (JsonNode s : requireArray(segNodes, "segments of " + name)) {
          Seg seg =
              new Seg(
                  name,
                  requireLong(s.get("start"), "segment start of " + name),
                  requireLong(s.get("end"), "segment end of " + name),
                  requireLong(s.get("offset"), "segment offset of " + name),
                  requireText(s.get("origin"), "segment origin of " + name));
          if (!seg.isCreated() && !seg.isLoaded() && !seg.isRecomputed()) {
            throw new IllegalArgumentException("unknown segment origin " + seg.origin());
          }
          all.get(name).add(seg);
          // rule "segment-range"
          if (seg.start() > seg.end()
              || seg.start() < 0
              || seg.end() > timesteps - 1
              || seg.offset() < 0) {
            broken.add("segment-range");
          } else {
            ok.get(name).add(seg);
          }
        }
      }
    }

    // ---------------------------------------------------------------- schedule-dependent rules
    if (scheduleOk) {
      for (String tensor : size.keySet()) {
        List<Seg> segs = ok.get(tensor);
        boolean produced = !writers.get(tensor).isEmpty();

        if (produced) {
          long p = Long.MAX_VALUE; // producer's timestep = earliest first run of a writer
          int producer = -1;
          for (int w : writers.get(tensor)) {
            if (firstRun[w] < p) {
              p = firstRun[w];
              producer = w;
            }
          }
          List<Seg> created = new ArrayList<>();
          for (Seg s : segs) {
            if (s.isCreated()) {
              created.add(s);
            }
          }
          // rule "created": exactly one created segment, starting at the producer's timestep
          if (created.size() != 1 || created.get(0).start() != p) {
            broken.add("created");
          }
          // rule "before-creation"
          for (Seg s : segs) {
            if (s.start() < p) {
              broken.add("before-creation");
            }
          }
          // rule "host-copy": a loaded segment needs a created segment that ended before it starts
          for (Seg s : segs) {
            if (s.isLoaded()) {
              boolean hostCopy = false;
              if (s.start() > p) {
                for (Seg c : created) {
                  if (c.end() < s.start()) {
                    hostCopy = true;
                  }
                }
              }
              if (!hostCopy) {
                broken.add("host-copy");
              }
            }
          }
          // every other writer's first run must be inside a segment (the producer's is "created")
          for (int w : writers.get(tensor)) {
            if (firstRun[w] != p && !covered(segs, firstRun[w])) {
              broken.add("residency");
            }
          }
          // rules "recompute-start" and "earlier-run": a recomputed segment starts at a later run
          for (Seg s : segs) {
            if (s.isRecomputed()) {
              int at = opAt[(int) s.start()];
              if (!writers.get(tensor).contains(at)) {
                broken.add("recompute-start");
              } else if (firstRun[at] == s.start()) {
                broken.add("earlier-run");
              }
            }
          }
          // rules "siblings" and "through-recompute", at every later run of the producer
          List<Integer> producerRuns = runsOf.get(producer);
          for (int k = 1; k < producerRuns.size(); k++) {
            int r = producerRuns.get(k);
            boolean made = false;
            boolean through = false;
            for (Seg s : segs) {
              if (s.isRecomputed() && s.start() == r) {
                made = true;
              }
              if (s.contains(r - 1) && s.contains(r)) {
                through = true;
              }
            }
            if (!made) {
              broken.add("siblings");
            }
            if (through) {
              broken.add("through-recompute");
            }
          }
        } else {
          // a host tensor has no created segment, and no operator to recompute it
          for (Seg s : segs) {
            if (s.isCreated()) {
              broken.add("created");
            }
            if (s.isRecomputed()) {
              broken.add("recompute-start");
            }
          }
        }

        // rule "residency": every read by every run lies inside a segment
        for (int r : readers.get(tensor)) {
          for (int t : runsOf.get(r)) {
            if (!covered(segs, t)) {
              broken.add("residency");
            }
          }
        }

        // rule "past-last-use": last use = latest read by any run or first run of a writer; -1 if
        // none (unread host tensor). A recomputed segment may also end at its own start.
        long lastUse = -1;
        for (int r : readers.get(tensor)) {
          for (int t : runsOf.get(r)) {
            lastUse = Math.max(lastUse, t);
          }
        }
        for (int w : writers.get(tensor)) {
          lastUse = Math.max(lastUse, firstRun[w]);
        }
        for (Seg s : segs) {
          long limit = s.isRecomputed() ? Math.max(lastUse, s.start()) : lastUse;
          if (s.end() > limit) {
            broken.add("past-last-use");
          }
        }
      }
    }

    // ---------------------------------------------------------------- schedule-independent rules
    List<Seg> everyOk = new ArrayList<>();
    for (String tensor : size.keySet()) {
      List<Seg> segs = ok.get(tensor);
      long sz = size.get(tensor);
      // rule "segment-overlap": segments of one tensor are disjoint in time
      for (int i = 0; i < segs.size(); i++) {
        for (int j = i + 1; j < segs.size(); j++) {
          if (timeIntersects(segs.get(i), segs.get(j))) {
            broken.add("segment-overlap");
          }
        }
      }
      for (Seg s : segs) {
        // rule "budget"
        if (saturatingAdd(s.offset(), sz) > budget) {
          broken.add("budget");
        }
        // rule "alignment"
        if (s.offset() % alignment != 0) {
          broken.add("alignment");
        }
        everyOk.add(s);
      }
    }
    // rule "address-overlap": at every timestep, the address ranges of the segments containing it
    // are pairwise disjoint
    for (int t = 0; t < timesteps; t++) {
      for (int i = 0; i < everyOk.size(); i++) {
        Seg a = everyOk.get(i);
        if (!a.contains(t)) {
          continue;
        }
        for (int j = i + 1; j < everyOk.size(); j++) {
          Seg b = everyOk.get(j);
          if (!b.contains(t)) {
            continue;
          }
          long aEnd = saturatingAdd(a.offset(), size.get(a.tensor()));
          long bEnd = saturatingAdd(b.offset(), size.get(b.tensor()));
          if (a.offset() < bEnd && b.offset() < aEnd) {
            broken.add("address-overlap");
          }
        }
      }
    }

    // ---------------------------------------------------------------- traffic
    long compulsory = 0;
    long nonCompulsory = 0;
    for (String tensor : size.keySet()) {
      long sz = size.get(tensor);
      boolean produced = !writers.get(tensor).isEmpty();
      boolean used = !readers.get(tensor).isEmpty();
      boolean output = graphOutputs.contains(tensor);
      long loads = 0;
      for (Seg s : all.get(tensor)) {
        if (s.isLoaded()) {
          loads++;
        }
      }
      if (!produced && used) {
        compulsory += sz; // one compulsory load of a used host tensor
      }
      if (output) {
        compulsory += sz; // one compulsory write of a graph output
      }
      if (!produced) {
        if (used) {
          nonCompulsory += loads >= 1 ? (loads - 1) * sz : 0; // first load is compulsory
        } else {
          nonCompulsory += loads * sz;
        }
      } else {
        nonCompulsory += loads * sz;
        if (!output && loads >= 1) {
          nonCompulsory += sz; // the spill (write to host) of a non-output tensor
        }
      }
    }
    long peakFootprint = 0;
    for (int t = 0; t < timesteps; t++) {
      long total = 0;
      for (String tensor : size.keySet()) {
        for (Seg s : all.get(tensor)) {
          if (s.contains(t)) {
            total += size.get(tensor);
          }
        }
      }
      peakFootprint = Math.max(peakFootprint, total);
    }
    long peakAddress = 0;
    for (String tensor : size.keySet()) {
      for (Seg s : all.get(tensor)) {
        peakAddress = Math.max(peakAddress, saturatingAdd(s.offset(), size.get(tensor)));
      }
    }

    return new Verdict(
        broken.isEmpty(),
        Collections.unmodifiableSet(broken),
        compulsory,
        nonCompulsory,
        peakFootprint,
        peakAddress,
        recomputes,
        recomputeCost);
  }

  // ------------------------------------------------------------------ helpers

  private static boolean covered(List<Seg> segs, long t) {
    for (Seg s : segs) {
      if (s.contains(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean timeIntersects(Seg a, Seg b) {
    return a.start() <= b.end() && b.start() <= a.end();
  }

  /** a + b, clamped to Long.MAX_VALUE / Long.MIN_VALUE instead of overflowing. */
  private static long saturatingAdd(long a, long b) {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException e) {
      return a > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }

  /** Tensor names of an operator's inputs/outputs (or graph outputs), minus dropped parameters. */
  private static List<String> tensorList(
      JsonNode node, String where, Map<String, Long> size, Set<String> dropped) {
    List<String> names = new ArrayList<>();
    for (JsonNode e : requireArray(node, "tensor list of " + where)) {
      String name = requireText(e, "tensor name in " + where);
      if (dropped.contains(name)) {
        continue;
      }
      if (!size.containsKey(name)) {
        throw new IllegalArgumentException(where + " names unknown tensor " + name);
      }
      names.add(name);
    }
    return names;
  }

  private static JsonNode requireArray(JsonNode node, String what) {
    if (node == null || !node.isArray()) {
      throw new IllegalArgumentException(what + ": expected an array");
    }
    return node;
  }

  private static String requireText(JsonNode node, String what) {
    if (node == null || !node.isTextual()) {
      throw new IllegalArgumentException(what + ": expected a string");
    }
    return node.asText();
  }

  private static long requireLong(JsonNode node, String what) {
    if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
      throw new IllegalArgumentException(what + ": expected an integer");
    }
    return node.asLong();
  }
}
