package dev.memplan.model;

import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a {@link Plan} obeys every rule of memory-model.md, recomputation included, and computes its
 * traffic, recomputes, recompute cost, peak footprint and peak address. It returns all violations, each naming
 * the {@link Rule}, the tensors and the timestep.
 *
 * <p>Per-tensor rules walk each tensor's segments sorted by start together with its sorted uses (every run of
 * every reader) and the recomputes of its producer; the non-overlap rule is a sweep over time
 * ({@link OverlapSweep}). Time O(S log S + U + R log S) for S segments, U uses and R recomputed outputs: no
 * pass over all pairs of tensors.
 */
public final class PlanChecker {

    private PlanChecker() {
    }

    /** How many checks {@link #check} remembers. */
    static final int REMEMBERED = 4;

    /**
     * The last {@link #REMEMBERED} checks, by the identity of the graph view and of the plan (both immutable, so
     * the report of one pair never changes). A plan handed from its maker to the pipeline is checked by both: a
     * scheme checks its own plan, then divide and conquer checks every start it is offered (on gen:layered:5000:train
     * two checks of the same default scheme's plan took 3 s under load, past a time limit). Held weakly: remembering
     * keeps no graph or plan alive.
     */
    private static final ArrayDeque<Remembered> RECENT = new ArrayDeque<>();

    private record Remembered(WeakReference<Graph> graph, WeakReference<Plan> plan, CheckReport report) {
    }

    /**
     * Checks a plan against a graph; the graph is taken in the plan's tensor setting. The same plan object checked
     * again on the same graph gets the report it had ({@link #REMEMBERED}); {@link #checkAfresh} checks anew.
     */
    public static CheckReport check(Graph graph, Plan plan) {
        Graph view = graph.withSetting(plan.setting());
        synchronized (RECENT) {
            for (Remembered r : RECENT) {
                if (r.graph().get() == view && r.plan().get() == plan) {
                    return r.report();
                }
            }
        }
        CheckReport report = new Run(view, plan).run();
        synchronized (RECENT) {
            RECENT.addFirst(new Remembered(new WeakReference<>(view), new WeakReference<>(plan), report));
            while (RECENT.size() > REMEMBERED) {
                RECENT.removeLast();
            }
        }
        return report;
    }

    /** {@link #check} without the reports remembered: every rule walked again (the checker's benchmark). */
    public static CheckReport checkAfresh(Graph graph, Plan plan) {
        return new Run(graph.withSetting(plan.setting()), plan).run();
    }

    /**
     * Fails with every violation unless the plan is valid; for planners, whose output must be checked before
     * anyone reports it. A failure here is a bug in the planner, and the message says so.
     */
    public static CheckReport requireValid(Graph graph, Plan plan, String maker) {
        CheckReport report = check(graph, plan);
        if (!report.valid()) {
            StringBuilder sb = new StringBuilder("bug: " + maker + " produced a plan that breaks the memory model ("
                    + report.violations().size() + " violations):");
            report.violations().stream().limit(20).forEach(v -> sb.append("\n  ").append(v));
            throw new IllegalStateException(sb.toString());
        }
        return report;
    }

    /**
     * Problems with a schedule: not a permutation of the graph's operators, or not topological. At most
     * {@code limit} messages.
     */
    public static List<String> scheduleProblems(Graph graph, Schedule schedule, int limit) {
        return scheduleProblems(graph, schedule, limit, false);
    }

    /**
     * The problems of {@link #scheduleProblems(Graph, Schedule, int)}; with {@code runs}, an operator named again
     * is a recompute, not a problem, and a run must come after the first run of the producer of what it reads.
     */
    private static List<String> scheduleProblems(Graph graph, Schedule schedule, int limit, boolean runs) {
        List<String> problems = new ArrayList<>();
        int n = graph.operatorCount();
        int[] position = new int[n];
        Arrays.fill(position, -1);
        List<String> ops = schedule.operators();
        for (int t = 0; t < ops.size() && problems.size() < limit; t++) {
            int o = graph.operatorIndex(ops.get(t));
            if (o < 0) {
                problems.add("timestep " + t + ": unknown operator '" + ops.get(t) + "'");
            } else if (position[o] >= 0 && !runs) {
                problems.add("timestep " + t + ": operator '" + ops.get(t) + "' is scheduled twice (also at timestep "
                        + position[o] + ")");
            } else if (position[o] < 0) {
                position[o] = t;
            }
        }
        for (int o = 0; o < n && problems.size() < limit; o++) {
            if (position[o] < 0 && graph.operatorIndex(graph.operator(o).name()) == o) {
                problems.add("operator '" + graph.operator(o).name() + "' is not scheduled");
            }
        }
        if (!problems.isEmpty()) {
            return problems;
        }
        for (int t = 0; t < ops.size() && problems.size() < limit; t++) {
            int o = graph.operatorIndex(ops.get(t));
            for (int in : graph.inputs(o)) {
                int p = graph.producer(in);
                if (p >= 0 && position[p] > t) {
                    problems.add("timestep " + t + ": operator '" + ops.get(t) + "' reads '" + graph.tensor(in).name()
                            + "' before its producer '" + graph.operator(p).name() + "' runs (timestep "
                            + position[p] + ")");
                }
            }
        }
        return problems;
    }

    /** One check of one plan. */
    private static final class Run {
        private final Graph graph;
        private final Plan plan;
        /** Timesteps: the schedule's length, at least the operator count (a short schedule is broken anyway). */
        private final int timesteps;
        private final List<Violation> violations = new ArrayList<>();
        /** The operator of each timestep, or null when the schedule is broken. */
        private int[] at;
        /** The timesteps of each operator's runs, ascending (the first creates); null when the schedule is broken. */
        private int[][] runs;

        private long compulsory;
        private long nonCompulsory;
        private long loads;
        private long spills;

        Run(Graph graph, Plan plan) {
            this.graph = graph;
            this.plan = plan;
            this.timesteps = Math.max(graph.operatorCount(), plan.schedule().length());
        }

        CheckReport run() {
            checkSchedule();
            List<String> names = new ArrayList<>();
            List<Segment> all = new ArrayList<>();
            for (Map.Entry<String, List<Segment>> e : plan.segments().entrySet()) {
                int tensor = graph.tensorIndex(e.getKey());
                if (tensor < 0) {
                    if (!e.getValue().isEmpty()) {
                        add(Rule.UNKNOWN_TENSOR, List.of(e.getKey()), null, "tensor '" + e.getKey()
                                + "' is not in graph '" + graph.name() + "' (setting " + plan.setting().fileName() + ")");
                    }
                    continue;
                }
                List<Segment> sane = checkRanges(tensor, e.getValue());
                for (Segment s : sane) {
                    names.add(e.getKey());
                    all.add(s);
                }
            }
            for (int tensor = 0; tensor < graph.tensorCount(); tensor++) {
                String name = graph.tensor(tensor).name();
                List<Segment> sane = new ArrayList<>();
                for (Segment s : plan.segmentsOf(name)) {
                    if (inRange(s)) {
                        sane.add(s);
                    }
                }
                sane.sort(Comparator.comparingInt(Segment::start));
                checkTensor(tensor, sane);
                countTraffic(tensor, plan.segmentsOf(name));
            }
            long peakAddress = checkAddresses(names, all);
            long[] recomputes = countRecomputes();
            return new CheckReport(violations, new Traffic(compulsory, nonCompulsory, loads, spills, recomputes[0],
                    recomputes[1]), peakFootprint(names, all), peakAddress);
        }

        private void add(Rule rule, List<String> subjects, Integer timestep, String message) {
            violations.add(new Violation(rule, subjects, timestep, message));
        }

        private void checkSchedule() {
            List<String> problems = scheduleProblems(graph, plan.schedule(), Integer.MAX_VALUE, true);
            for (String p : problems) {
                add(Rule.SCHEDULE, List.of(), null, p);
            }
            if (problems.isEmpty()) {
                List<String> ops = plan.schedule().operators();
                at = new int[ops.size()];
                int[] count = new int[graph.operatorCount()];
                for (int t = 0; t < at.length; t++) {
                    at[t] = graph.operatorIndex(ops.get(t));
                    count[at[t]]++;
                }
                runs = new int[count.length][];
                for (int o = 0; o < count.length; o++) {
                    runs[o] = new int[count[o]];
                    count[o] = 0;
                }
                for (int t = 0; t < at.length; t++) {
                    runs[at[t]][count[at[t]]++] = t;
                }
            }
        }

        private boolean inRange(Segment s) {
            return s.start() >= 0 && s.start() <= s.end() && s.end() < timesteps && s.offset() >= 0;
        }

        /** Segment-local rules: range, budget, alignment. Returns the segments in range. */
        private List<Segment> checkRanges(int tensor, List<Segment> segments) {
            String name = graph.tensor(tensor).name();
            long size = graph.size(tensor);
            List<Segment> sane = new ArrayList<>();
            for (Segment s : segments) {
                if (!inRange(s)) {
                    add(Rule.SEGMENT_RANGE, List.of(name), s.start(), "tensor '" + name + "': segment [" + s.start()
                            + ", " + s.end() + "] at offset " + s.offset() + " is malformed: it must satisfy 0 <= start"
                            + " <= end <= " + (timesteps - 1) + " and offset >= 0");
                    continue;
                }
                sane.add(s);
                // offset >= 0 and size > 0 here: the saturating sum cannot wrap below the budget (ByteRange).
                long top = ByteRange.add(s.offset(), size);
                if (top > plan.budget()) {
                    add(Rule.BUDGET, List.of(name), s.start(), "tensor '" + name + "' at timestep " + s.start()
                            + " occupies [" + s.offset() + ", " + top + "), beyond the budget "
                            + plan.budget());
                }
                if (s.offset() % graph.alignment() != 0) {
                    add(Rule.ALIGNMENT, List.of(name), s.start(), "tensor '" + name + "' at timestep " + s.start()
                            + " has offset " + s.offset() + ", not a multiple of the alignment " + graph.alignment());
                }
            }
            return sane;
        }

        /** Rules about one tensor's segments over time; segments sorted by start. */
        private void checkTensor(int tensor, List<Segment> segments) {
            String name = graph.tensor(tensor).name();
            for (int k = 1; k < segments.size(); k++) {
                Segment prev = segments.get(k - 1);
                Segment cur = segments.get(k);
                if (cur.start() <= prev.end()) {
                    add(Rule.SEGMENT_OVERLAP, List.of(name), cur.start(), "tensor '" + name + "': segments ["
                            + prev.start() + ", " + prev.end() + "] and [" + cur.start() + ", " + cur.end()
                            + "] overlap at timestep " + cur.start());
                }
            }
            if (at == null) {
                return;
            }
            int producer = graph.producer(tensor);
            if (producer < 0) {
                for (Segment s : segments) {
                    if (s.origin() == Origin.CREATED) {
                        add(Rule.CREATED, List.of(name), s.start(), "host tensor '" + name
                                + "' has a created segment at timestep " + s.start()
                                + "; host tensors are loaded, never created");
                    } else if (s.origin() == Origin.RECOMPUTED) {
                        add(Rule.RECOMPUTE_START, List.of(name), s.start(), "host tensor '" + name
                                + "' has a recomputed segment at timestep " + s.start()
                                + "; no operator produces a host tensor, so none can run again to make it");
                    }
                }
            } else {
                checkCreation(tensor, segments, runs[producer][0]);
                checkRecomputes(tensor, segments, runs[producer]);
            }
            int[] uses = Arrays.stream(graph.consumers(tensor)).flatMap(o -> Arrays.stream(runs[o])).sorted().toArray();
            checkUses(tensor, segments, uses);
            int lastUse = uses.length > 0 ? uses[uses.length - 1] : (producer >= 0 ? runs[producer][0] : -1);
            for (Segment s : segments) {
                // A recompute writes every output at its timestep, read later or not (a sibling made together).
                int limit = s.origin() == Origin.RECOMPUTED ? Math.max(lastUse, s.start()) : lastUse;
                if (s.end() > limit) {
                    add(Rule.PAST_LAST_USE, List.of(name), s.end(), "tensor '" + name + "': segment [" + s.start()
                            + ", " + s.end() + "] extends past the tensor's last use "
                            + (limit < 0 ? "(no operator reads it)" : "at timestep " + limit));
                }
            }
        }

        private void checkCreation(int tensor, List<Segment> segments, int created) {
            String name = graph.tensor(tensor).name();
            String producerName = graph.operator(graph.producer(tensor)).name();
            long count = segments.stream().filter(s -> s.origin() == Origin.CREATED).count();
            boolean atProducer = segments.stream().anyMatch(s -> s.origin() == Origin.CREATED && s.start() == created);
            if (count != 1 || !atProducer) {
                add(Rule.CREATED, List.of(name), created, "tensor '" + name + "' needs exactly one created segment,"
                        + " starting at timestep " + created + " when '" + producerName + "' runs"
                        + (runs[graph.producer(tensor)].length > 1 ? " first" : "") + "; it has " + count
                        + (count > 0 && !atProducer ? " at another timestep" : ""));
            }
            // A produced tensor has a host copy once its (first) created segment has ended: it was written out;
            // never before its producer's first run, even when a created segment is misplaced earlier.
            // A recompute writes the tensor on chip only, so it makes no host copy.
            int copiedAfter = Math.max(created, segments.stream().filter(s -> s.origin() == Origin.CREATED)
                    .mapToInt(Segment::end).min().orElse(Integer.MAX_VALUE));
            boolean recomputed = segments.stream().anyMatch(s -> s.origin() == Origin.RECOMPUTED);
            for (Segment s : segments) {
                if (s.start() < created) {
                    add(Rule.BEFORE_CREATION, List.of(name), s.start(), "tensor '" + name + "' has a segment at timestep "
                            + s.start() + ", before it is created at timestep " + created);
                }
                if (s.origin() == Origin.LOADED && s.start() <= copiedAfter) {
                    add(Rule.HOST_COPY, List.of(name), s.start(), "tensor '" + name + "' is loaded at timestep "
                            + s.start() + " but host memory has no copy of it then: it is created at timestep "
                            + created + " and has a host copy only after its created segment ends"
                            + (recomputed ? " (a recompute makes none)" : ""));
                }
            }
        }

        /**
         * memory-model.md, "Recomputation": a recomputed segment starts at a later run of the producer; every
         * later run gives the tensor a recomputed segment that starts there, and no segment runs into it from the
         * timestep before. Segments sorted by start; {@code producerRuns} ascending, the first creates.
         */
        private void checkRecomputes(int tensor, List<Segment> segments, int[] producerRuns) {
            String name = graph.tensor(tensor).name();
            int producer = graph.producer(tensor);
            String producerName = graph.operator(producer).name();
            for (Segment s : segments) {
                if (s.origin() != Origin.RECOMPUTED) {
                    continue;
                }
                if (at[s.start()] != producer) {
                    add(Rule.RECOMPUTE_START, List.of(name), s.start(), "tensor '" + name + "' has a recomputed segment"
                            + " at timestep " + s.start() + ", where '" + graph.operator(at[s.start()]).name()
                            + "' runs, not its producer '" + producerName + "'");
                } else if (s.start() == producerRuns[0]) {
                    add(Rule.EARLIER_RUN, List.of(name), s.start(), "tensor '" + name + "' has a recomputed segment"
                            + " at timestep " + s.start() + ", the first run of '" + producerName
                            + "', which creates it; a recompute needs an earlier run");
                }
            }
            if (producerRuns.length == 1) {
                return;
            }
            int[] starts = segments.stream().mapToInt(Segment::start).toArray();
            // reach[k]: the latest end among segments 0..k, so "some segment from before t reaches t" is one lookup.
            int[] reach = new int[starts.length];
            for (int k = 0; k < reach.length; k++) {
                reach[k] = Math.max(k > 0 ? reach[k - 1] : -1, segments.get(k).end());
            }
            for (int r = 1; r < producerRuns.length; r++) {
                int t = producerRuns[r];
                int from = firstAtOrAfter(starts, t);
                boolean made = false;
                for (int k = from; k < starts.length && starts[k] == t && !made; k++) {
                    made = segments.get(k).origin() == Origin.RECOMPUTED;
                }
                if (!made) {
                    add(Rule.SIBLINGS, List.of(name), t, "'" + producerName + "' runs again at timestep " + t
                            + " but its output '" + name + "' has no recomputed segment starting there; a recompute"
                            + " makes all its outputs");
                }
                // Segments starting before t - 1 or at it are those before index firstAtOrAfter(t).
                if (from > 0 && reach[from - 1] >= t) {
                    Segment through = segments.subList(0, from).stream().filter(s -> s.end() >= t).findFirst()
                            .orElseThrow();
                    add(Rule.THROUGH_RECOMPUTE, List.of(name), t, "tensor '" + name + "': segment [" + through.start()
                            + ", " + through.end() + "] continues through timestep " + t + ", where '" + producerName
                            + "' runs again; a recompute makes a new copy, it does not extend one");
                }
            }
        }

        /** The first index whose start is at least {@code t}, in ascending starts. */
        private static int firstAtOrAfter(int[] starts, int t) {
            int lo = 0;
            int hi = starts.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (starts[mid] < t) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** Rule 2: each use inside a segment; both lists sorted. */
        private void checkUses(int tensor, List<Segment> segments, int[] uses) {
            String name = graph.tensor(tensor).name();
            for (int t : uses) {
                boolean covered = false;
                for (Segment s : segments) {
                    if (s.start() > t) {
                        break;
                    }
                    if (s.end() >= t) {
                        covered = true;
                        break;
                    }
                }
                if (!covered) {
                    add(Rule.RESIDENCY, List.of(name), t, "tensor '" + name + "' is read by '"
                            + plan.schedule().operators().get(t) + "' at timestep " + t
                            + " but is not resident: no segment contains " + t);
                }
            }
        }

        /** memory-model.md "Traffic", per tensor, so that broken plans get meaningful figures too. */
        private void countTraffic(int tensor, List<Segment> segments) {
            long size = graph.size(tensor);
            long loaded = segments.stream().filter(s -> s.origin() == Origin.LOADED).count();
            // Saturating sums (ByteRange): a plan file may repeat a segment of a huge tensor any number of times.
            loads = ByteRange.add(loads, ByteRange.times(loaded, size));
            boolean used = graph.consumers(tensor).length > 0;
            if (graph.isHost(tensor)) {
                if (used) {
                    compulsory = ByteRange.add(compulsory, size);
                    nonCompulsory = ByteRange.add(nonCompulsory, ByteRange.times(Math.max(0, loaded - 1), size));
                } else {
                    nonCompulsory = ByteRange.add(nonCompulsory, ByteRange.times(loaded, size));
                }
            } else {
                nonCompulsory = ByteRange.add(nonCompulsory, ByteRange.times(loaded, size));
                if (graph.isGraphOutput(tensor)) {
                    compulsory = ByteRange.add(compulsory, size);
                } else if (loaded > 0) {
                    spills = ByteRange.add(spills, size);
                    nonCompulsory = ByteRange.add(nonCompulsory, size);
                }
            }
        }

        /**
         * memory-model.md "Recomputation": the runs beyond the first of each known operator and the sum of their
         * costs (saturating, as the traffic does), so that broken schedules get meaningful figures too.
         */
        private long[] countRecomputes() {
            boolean[] ran = new boolean[graph.operatorCount()];
            long count = 0;
            long cost = 0;
            for (String name : plan.schedule().operators()) {
                int o = graph.operatorIndex(name);
                if (o < 0) {
                    continue;
                }
                if (ran[o]) {
                    count++;
                    cost = ByteRange.add(cost, graph.cost(o));
                }
                ran[o] = true;
            }
            return new long[] {count, cost};
        }

        /** Rule 4's non-overlap over all segments in range; returns the peak address. */
        private long checkAddresses(List<String> names, List<Segment> all) {
            int m = all.size();
            long[] lower = new long[m];
            long[] upper = new long[m];
            long[] offset = new long[m];
            long[] size = new long[m];
            for (int i = 0; i < m; i++) {
                Segment s = all.get(i);
                lower[i] = s.start();
                upper[i] = s.end() + 1L;
                offset[i] = s.offset();
                size[i] = graph.size(graph.tensorIndex(names.get(i)));
            }
            long peak = 0;
            for (int i = 0; i < m; i++) {
                peak = Math.max(peak, ByteRange.add(offset[i], size[i]));
            }
            OverlapSweep.findOverlaps(lower, upper, offset, size, (a, b) -> {
                String na = names.get(a);
                String nb = names.get(b);
                int t = (int) Math.max(lower[a], lower[b]);
                add(Rule.ADDRESS_OVERLAP, List.of(na, nb), t, "tensors '" + na + "' [" + offset[a] + ", "
                        + ByteRange.add(offset[a], size[a]) + ") and '" + nb + "' [" + offset[b] + ", "
                        + ByteRange.add(offset[b], size[b])
                        + ") share addresses at timestep " + t);
            });
            return peak;
        }

        private long peakFootprint(List<String> names, List<Segment> all) {
            int m = all.size();
            int[] starts = new int[m];
            int[] ends = new int[m];
            long[] sizes = new long[m];
            for (int i = 0; i < m; i++) {
                starts[i] = all.get(i).start();
                ends[i] = all.get(i).end();
                sizes[i] = graph.size(graph.tensorIndex(names.get(i)));
            }
            return Timeline.peak(timesteps, starts, ends, sizes);
        }
    }
}
