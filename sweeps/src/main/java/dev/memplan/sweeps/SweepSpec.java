package dev.memplan.sweeps;

import dev.memplan.baselines.allocation.Allocators;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A sweep spec (YAML or JSON) and its cases: the product of graphs x settings x budgets x planners x recompute
 * weights x solvers x time limits x threads x repeats (and buffers x capacities x allocators), kept by
 * {@code include} and dropped by {@code exclude} filters. The schema is in docs/sweeps.md; every mistake is reported
 * with the file, line and column. Axes a planner does not use are not multiplied: schemes solve no program (solver
 * empty) and take the first time limit and thread count (for the minimum-peak order); spill-only schemes take no
 * recompute weight, recompute schemes only weights; allocators run on buffers, not graphs.
 *
 * @param name the spec's {@code name}, or its file name
 * @param hash a hash of the spec's text
 * @param cases in spec order: graph, setting, budget, planner, recompute weight, solver, time limit, threads, repeat
 */
public record SweepSpec(String name, String hash, List<SweepCase> cases) {
    private static final Set<String> KEYS = Set.of("name", "graphs", "settings", "budgets", "planners", "solvers",
            "time_limits", "work_limits", "threads", "repeats", "buffers", "capacities", "allocators", "include", "exclude",
            "recompute_weights");
    private static final Set<String> FILTER_KEYS = Set.of("graph", "setting", "budget", "planner", "solver",
            "recompute_weight");
    private static final Pattern NUMBER = Pattern.compile("(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");
    /**
     * The work limit of a case that counts work (COSMA on CP-SAT, the allocators but the ILP) when the spec names
     * neither time nor work limits: about a minute on a quiet 2-core machine, the same rows on any machine.
     */
    public static final double DEFAULT_WORK_LIMIT = 60;
    /** The time limit of a case that counts no work (COSMA on SCIP, CBC, HiGHS, ojAlgo) when the spec names none. */
    public static final double DEFAULT_TIME_LIMIT = 60;
    private static final String BUILTIN = "/dev/memplan/sweeps/specs/";

    /** Reads a spec file; relative graph and buffer paths are relative to the spec's folder. */
    public static SweepSpec read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SweepException("cannot read spec " + file + ": " + dev.memplan.model.io.AtomicFiles.reason(e), e);
        }
        Path dir = file.toAbsolutePath().getParent();
        return parse(text, file.toString(), dir);
    }

    /** A spec shipped with memplan ({@link #builtinNames()}), its relative paths against the working folder. */
    public static SweepSpec builtin(String name) {
        return parse(builtinText(name), "builtin:" + name + ".yaml", Path.of("").toAbsolutePath());
    }

    /** The text of a built-in spec, to copy and edit. */
    public static String builtinText(String name) {
        try (InputStream in = SweepSpec.class.getResourceAsStream(BUILTIN + name + ".yaml")) {
            if (in == null) {
                throw new SweepException("no built-in spec named '" + name + "'; built-in specs: "
                        + String.join(", ", builtinNames()));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the built-in spec " + name, e);
        }
    }

    /** The built-in specs' names. */
    public static List<String> builtinNames() {
        return List.of("bench-compare", "bench-cosma", "three-networks");
    }

    /**
     * Parses a spec's text.
     *
     * @param file the name used in messages (and {@code .json} selects JSON)
     * @param dir the folder relative paths are resolved against
     */
    public static SweepSpec parse(String text, String file, Path dir) {
        SpecNode root = SpecNode.parse(text, file);
        Map<String, SpecNode> top = root.fields("a sweep spec");
        for (Map.Entry<String, SpecNode> e : top.entrySet()) {
            if (!KEYS.contains(e.getKey())) {
                throw root.key(e.getKey()).error("unknown key '" + e.getKey() + "'; a spec has " + String.join(", ",
                        KEYS.stream().sorted().toList()));
            }
        }
        String name = top.containsKey("name") ? top.get("name").text("name") : Path.of(file).getFileName().toString();
        for (String axis : List.of("graphs", "buffers")) {
            if (top.containsKey(axis) && top.get(axis).items().isEmpty()) {
                throw top.get(axis).error("'" + axis + "' is empty: a sweep over no " + axis + " runs nothing");
            }
        }
        List<Item> graphs = top.containsKey("graphs") ? graphs(top.get("graphs"), dir) : List.of();
        List<Item> buffers = top.containsKey("buffers") ? files(top.get("buffers"), dir, "buffers") : List.of();
        if (graphs.isEmpty() && buffers.isEmpty()) {
            throw root.error("a spec needs 'graphs' (or 'buffers' for allocators)");
        }
        List<String> settings = values(top, "settings", List.of("activations"), (n, s) -> {
            try {
                TensorSetting.parse(s);
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
        }).stream().map(s -> TensorSetting.parse(s).fileName()).toList();
        List<String> budgets = values(top, "budgets", List.of("M_R", "M_H", "M_P"), (n, s) -> {
            if (s.replace("_", "").matches("\\d+")) {
                try {
                    // A number of bytes: above 2^53 it is too large, which the parser says (not "malformed").
                    dev.memplan.model.BudgetSpec.parse(s);
                } catch (IllegalArgumentException e) {
                    throw n.error(e.getMessage());
                }
            } else if (!dev.memplan.model.BudgetSpec.isWellFormed(s)) {
                throw n.error("budget '" + s + "' is not M_R, M_H, M_P, a fraction between 0 and 1 (M_R to M_P) "
                        + "written with a point such as 0.25, or a number of bytes");
            }
        });
        boolean timeGiven = top.containsKey("time_limits");
        boolean workGiven = top.containsKey("work_limits");
        // Work limits alone cannot bound a case that counts no work: refused where it is named, as the command
        // line refuses --work-limit with such a solver or allocator, rather than run on a default wall limit.
        boolean workOnly = workGiven && !timeGiven;
        List<SweepException> uncounted = new ArrayList<>();
        List<String> solvers = values(top, "solvers", List.of("cpsat"), (n, s) -> {
            try {
                Backend.parse(s);
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
            if (workOnly && !countsWork(s)) {
                uncounted.add(n.error("solver '" + s + "' counts no work, so 'work_limits' cannot bound COSMA on it"
                        + " (memplan solve refuses --work-limit with --solver " + s + "): give 'time_limits' too, or"
                        + " use cpsat"));
            }
        });
        List<Double> limits = new ArrayList<>();
        for (String s : values(top, "time_limits", List.of(trim(DEFAULT_TIME_LIMIT)), (n, s) -> {
            if (!s.equals("none") && !(s.matches("\\d+(\\.\\d*)?|\\.\\d+") && Double.parseDouble(s) > 0)) {
                throw n.error("a time limit is a positive number of seconds or 'none', got '" + s + "'"
                        + exponentHint(s));
            }
        })) {
            limits.add(s.equals("none") ? null : Double.parseDouble(s));
        }
        List<Double> works = new ArrayList<>();
        for (String s : values(top, "work_limits", List.of(trim(DEFAULT_WORK_LIMIT)), (n, s) -> {
            if (!(s.matches("\\d+(\\.\\d*)?|\\.\\d+")
                    && dev.memplan.model.LimitValues.isWorkLimit(Double.parseDouble(s)))) {
                throw n.error("a work limit is a number of work units from 0.000001 (the resolution of the work"
                        + " counters) to 1e9, got '" + s + "'" + exponentHint(s));
            }
        })) {
            works.add(Double.parseDouble(s));
        }
        // A case that counts work takes the work limits, the time limits (if given) as the outer guard; with only
        // time limits given it runs on wall time as before. A case that counts none takes the time limits.
        List<Double> workAxis = workGiven || !timeGiven ? works : Collections.singletonList(null);
        List<Double> guardAxis = timeGiven ? limits : Collections.singletonList(null);
        List<Double> wallAxis = limits;
        List<Integer> threads = integers(top, "threads", List.of("1"));
        if (top.containsKey("threads") && threads.stream().anyMatch(t -> t > Limits.MAX_THREADS)) {
            throw top.get("threads").error("'threads' must be within 1.." + Limits.MAX_THREADS);
        }
        int repeats = integers(top, "repeats", List.of("1")).get(0);
        List<Double> weights = weights(top);
        boolean weighted = weights.stream().anyMatch(w -> w != null);
        List<PlannerChoice> planners = graphs.isEmpty() ? List.of()
                : top.containsKey("planners") ? planners(top.get("planners"), weighted)
                : planners(SpecNode.parse("[paper, cosma]", file), weighted);
        if (!uncounted.isEmpty() && planners.stream().anyMatch(p -> p.kind() == PlannerChoice.Kind.COSMA)) {
            throw uncounted.get(0);
        }
        List<PlannerChoice> allocators = new ArrayList<>();
        for (String a : values(top, "allocators", buffers.isEmpty() ? List.of() : List.of("minimalloc"), (n, s) -> {
            if (!Allocators.NAMES.contains(s)) {
                throw n.error("unknown allocator '" + s + "'; allocators: " + String.join(", ", Allocators.NAMES));
            }
            if (workOnly && !countsWork(new PlannerChoice(PlannerChoice.Kind.ALLOCATOR, s, Map.of()))) {
                throw n.error("allocator '" + s + "' counts no work (SCIP), so 'work_limits' cannot bound it (memplan"
                        + " allocate refuses --work-limit with --allocator " + s + "): give 'time_limits' too");
            }
        })) {
            allocators.add(new PlannerChoice(PlannerChoice.Kind.ALLOCATOR, a, Map.of()));
        }
        if (!allocators.isEmpty() && buffers.isEmpty()) {
            throw top.get("allocators").error("allocators run on 'buffers' (MiniMalloc CSV files), and the spec has none");
        }
        List<String> capacities = values(top, "capacities", List.of("file"), (n, s) -> {
            if (!s.equals("file") && !s.replace("_", "").matches("\\d{1,18}")) {
                throw n.error("a capacity is a number of bytes or 'file' (from the file name X.<capacity>.csv)");
            }
        });
        List<Filter> include = filters(top.get("include"));
        List<Filter> exclude = filters(top.get("exclude"));

        List<SweepCase> cases = new ArrayList<>();
        Set<String> keys = new LinkedHashSet<>();
        for (Item g : graphs) {
            for (String s : settings) {
                for (String b : budgets) {
                    for (PlannerChoice p : planners) {
                        boolean solves = p.kind() == PlannerChoice.Kind.COSMA;
                        for (Double w : weightsOf(p, weights)) {
                            for (String solver : solves ? solvers : List.of("")) {
                                boolean counts = solves && countsWork(solver);
                                for (Double work : counts ? workAxis : Collections.<Double>singletonList(null)) {
                                    for (Double limit : counts ? guardAxis : solves ? wallAxis
                                            : wallAxis.subList(0, 1)) {
                                        for (int t : solves ? threads : threads.subList(0, 1)) {
                                            for (int r = 0; r < repeats; r++) {
                                                add(cases, keys, include, exclude, new SweepCase(g.name, g.source, s,
                                                        b, p, solver, limit, work, t, r, w));
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for (Item f : buffers) {
            for (String c : capacities) {
                for (PlannerChoice a : allocators) {
                    boolean counts = countsWork(a);
                    for (Double work : counts ? workAxis : Collections.<Double>singletonList(null)) {
                        for (Double limit : counts ? guardAxis : wallAxis) {
                            for (int t : threads) {
                                for (int r = 0; r < repeats; r++) {
                                    add(cases, keys, include, exclude,
                                            new SweepCase(f.name, f.source, "buffers", c, a, "", limit, work, t, r));
                                }
                            }
                        }
                    }
                }
            }
        }
        if (cases.isEmpty()) {
            throw root.error("the spec has no cases: 'include' and 'exclude' leave none of the "
                    + (graphs.size() * settings.size() * budgets.size() * planners.size()
                    + buffers.size() * capacities.size() * allocators.size()) + " combinations");
        }
        return new SweepSpec(name, hash(text), List.copyOf(cases));
    }

    private static void add(List<SweepCase> cases, Set<String> keys, List<Filter> include, List<Filter> exclude,
                            SweepCase c) {
        if ((include.isEmpty() || include.stream().anyMatch(f -> f.matches(c)))
                && exclude.stream().noneMatch(f -> f.matches(c)) && keys.add(c.key())) {
            cases.add(c);
        }
    }

    /** A graph or buffer file: its name as the spec writes it, and where to read it. */
    private record Item(String name, String source) {
    }

    private static List<Item> graphs(SpecNode node, Path dir) {
        List<Item> out = new ArrayList<>();
        for (SpecNode n : node.items()) {
            String text = n.text("a graph");
            requirePath(n, text);
            dev.memplan.datasets.TrainingGraphs.Name training = dev.memplan.datasets.TrainingGraphs.parse(text);
            if (GraphSources.isName(text) && !Files.isRegularFile(dir.resolve(text))) {
                out.add(new Item(text, text));
            } else if (training != null && !Files.isRegularFile(dir.resolve(text))
                    && Files.isRegularFile(dir.resolve(training.base()))) {
                // FILE:train: the training step of a graph file beside the spec
                out.add(new Item(text, dir.resolve(training.base()) + training.step().suffix()));
            } else if (text.startsWith("gen:")) {
                throw n.error("'" + text + "' is not a generated graph name: use gen:layered:N[:SEED] or "
                        + "gen:cells:N[:SEED]");
            } else {
                out.addAll(files(n, dir, "a graph"));
            }
        }
        return out;
    }

    /** Fails with the spec's place unless {@code text} can name a file on this system (no NUL character, say). */
    private static void requirePath(SpecNode n, String text) {
        try {
            Path.of(text);
        } catch (java.nio.file.InvalidPathException e) {
            throw n.error("'" + text + "' cannot be a file name here: " + e.getReason());
        }
    }

    /** A file, or a glob (its matches in name order); each must exist. */
    private static List<Item> files(SpecNode node, Path dir, String what) {
        List<Item> out = new ArrayList<>();
        for (SpecNode n : node.items()) {
            String text = n.text(what);
            requirePath(n, text);
            if (text.contains("*") || text.contains("?") || text.contains("[")) {
                List<Item> matches = glob(dir, text);
                if (matches.isEmpty()) {
                    throw n.error("no file matches '" + text + "' (relative to " + dir + ")");
                }
                out.addAll(matches);
            } else {
                Path p = dir.resolve(text);
                if (!Files.isRegularFile(p)) {
                    throw n.error("'" + text + "' is no file (relative to " + dir + ")"
                            + (what.equals("a graph") ? ", nor an example, zoo network or gen: name" : ""));
                }
                out.add(new Item(text, p.toAbsolutePath().normalize().toString()));
            }
        }
        return out;
    }

    private static List<Item> glob(Path dir, String pattern) {
        Path absolute = dir.resolve(pattern).normalize();
        // The walk starts at the deepest folder without wildcards.
        Path root = absolute.getRoot();
        for (Path part : absolute) {
            if (part.toString().matches(".*[*?\\[].*")) {
                break;
            }
            root = root.resolve(part);
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + absolute);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).filter(matcher::matches).sorted()
                    .map(p -> new Item(dir.relativize(p).toString(), p.toString())).toList();
        } catch (IOException e) {
            throw new SweepException("cannot list " + root + ": " + e.getMessage(), e);
        }
    }

    private interface Check {
        void check(SpecNode node, String value);
    }

    private static List<String> values(Map<String, SpecNode> top, String key, List<String> defaults, Check check) {
        SpecNode node = top.get(key);
        if (node == null) {
            return defaults;
        }
        List<String> out = new ArrayList<>();
        for (SpecNode n : node.items()) {
            String s = n.text(key + " item");
            check.check(n, s);
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        if (out.isEmpty()) {
            throw node.error("'" + key + "' is empty");
        }
        return out;
    }

    /** Whether this allocator counts its work: every one but the ILP (SCIP counts none). */
    static boolean countsWork(PlannerChoice allocator) {
        return !allocator.name().equals("ilp");
    }

    /**
     * The {@code recompute_weights} axis: each a number >= 0 (bytes per unit of recompute cost) or {@code none}
     * (spill-only, null); without the key, {@code [none]}: the cases and keys of a spec written before weights.
     */
    private static List<Double> weights(Map<String, SpecNode> top) {
        List<Double> out = new ArrayList<>();
        for (String s : values(top, "recompute_weights", List.of("none"), (n, s) -> {
            if (!s.equals("none") && !(NUMBER.matcher(s).matches() && Double.isFinite(Double.parseDouble(s)))) {
                throw n.error("a recompute weight is a number >= 0 (bytes per unit of recompute cost) or 'none' "
                        + "(spill only), got '" + s + "'");
            }
        })) {
            Double w = s.equals("none") ? null : Double.parseDouble(s);
            if (!out.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    /**
     * The weights a planner runs at: COSMA every one; a spill-only scheme none (its plan does not depend on the
     * weight); a recompute scheme every number (it needs one).
     */
    private static List<Double> weightsOf(PlannerChoice p, List<Double> weights) {
        if (p.kind() != PlannerChoice.Kind.SCHEME) {
            return p.kind() == PlannerChoice.Kind.COSMA ? weights : Collections.singletonList(null);
        }
        return p.recomputes() ? weights.stream().filter(w -> w != null).toList() : Collections.singletonList(null);
    }

    /** Whether COSMA on this back-end counts deterministic work (CP-SAT alone does). */
    static boolean countsWork(String solver) {
        return Backend.parse(solver) == Backend.CPSAT;
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    /**
     * The hint for a limit written with an exponent: YAML 1.1 reads {@code 1e300} (no point) as text, and a spec
     * takes limits as plain decimals only.
     */
    private static String exponentHint(String text) {
        return text.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)[eE][+-]?\\d+")
                ? " (written with an exponent: write the number as plain digits, such as 3600 or 0.5)" : "";
    }

    /** The most a count of a spec (threads, repeats) may be: six digits. */
    private static final int MAX_COUNT = 999_999;

    private static List<Integer> integers(Map<String, SpecNode> top, String key, List<String> defaults) {
        return values(top, key, defaults, (n, s) -> {
            if (!s.matches("\\d+")) {
                throw n.error("'" + key + "' must be a positive whole number, got '" + s + "'");
            }
            if (!s.matches("\\d{1,6}") || Integer.parseInt(s) < 1) {
                throw n.error("'" + key + "' must be a whole number from 1 to " + MAX_COUNT + ", got '" + s + "'");
            }
        }).stream().map(Integer::parseInt).toList();
    }

    private static List<PlannerChoice> planners(SpecNode node, boolean weighted) {
        if (node.items().isEmpty()) {
            throw node.error("'planners' is empty: name at least one planner (e.g. [paper, cosma])");
        }
        List<PlannerChoice> out = new ArrayList<>();
        for (SpecNode n : node.items()) {
            if (n.isMap()) {
                out.add(cosma(n));
                continue;
            }
            String text = n.text("a planner");
            switch (text) {
                case "paper" -> Schemes.PAPER.forEach(s -> out.add(new PlannerChoice(PlannerChoice.Kind.SCHEME, s, Map.of())));
                case "schemes" -> Schemes.all().forEach(s -> out.add(new PlannerChoice(PlannerChoice.Kind.SCHEME, s, Map.of())));
                case "cosma" -> out.add(new PlannerChoice(PlannerChoice.Kind.COSMA, "cosma", Map.of()));
                case "recompute" -> {
                    requireWeights(n, text, weighted);
                    PlannerChoice.RECOMPUTE.forEach(s -> out.add(PlannerChoice.scheme(s)));
                }
                case "checkpoint-cheap" -> {
                    requireWeights(n, text, weighted);
                    Schemes.cheapRungs("default").forEach(s -> out.add(PlannerChoice.scheme(s)));
                }
                default -> {
                    try {
                        if (text.split("/", -1).length == 4) {
                            Schemes.recomputing(text, 0);
                            requireWeights(n, text, weighted);
                        } else {
                            Schemes.byName(text);
                        }
                    } catch (IllegalArgumentException e) {
                        throw n.error(e.getMessage() + "; or 'paper' (the paper's four), 'schemes' (all), 'recompute' "
                                + "(the recompute schemes), 'checkpoint-cheap' (checkpointing by price's four rungs), "
                                + "'cosma', or a map {name: cosma, schedule: ..., encoding: ..., without: [...], "
                                + "start: ...}");
                    }
                    out.add(new PlannerChoice(PlannerChoice.Kind.SCHEME, text, Map.of()));
                }
            }
        }
        return out.stream().distinct().toList();
    }

    private static void requireWeights(SpecNode n, String planner, boolean weighted) {
        if (!weighted) {
            throw n.error("'" + planner + "' recomputes, which needs a weight: add recompute_weights: [...] "
                    + "(bytes per unit of recompute cost, >= 0)");
        }
    }

    private static PlannerChoice cosma(SpecNode n) {
        Map<String, SpecNode> f = n.fields("a planner");
        for (Map.Entry<String, SpecNode> e : f.entrySet()) {
            if (!e.getKey().equals("name") && !e.getKey().equals("without")
                    && !PlannerChoice.COSMA_CHOICES.containsKey(e.getKey())) {
                throw n.key(e.getKey()).error("unknown COSMA option '" + e.getKey() + "'; options: "
                        + String.join(", ", PlannerChoice.COSMA_CHOICES.keySet()) + ", without");
            }
        }
        if (!f.containsKey("name") || !f.get("name").text("name").equals("cosma")) {
            StringBuilder form = new StringBuilder("{name: cosma");
            PlannerChoice.COSMA_CHOICES.forEach((key, values) -> form.append(", ").append(key).append(": ")
                    .append(String.join("|", values)));
            throw n.error("a planner written as a map is COSMA with options: " + form + ", without: ["
                    + Technique.ids() + "]}");
        }
        Map<String, String> options = new LinkedHashMap<>();
        PlannerChoice.COSMA_CHOICES.forEach((key, values) -> option(f, key, values, options));
        if (f.containsKey("without")) {
            List<String> ids = new ArrayList<>();
            for (SpecNode w : f.get("without").items()) {
                String id = w.text("a technique");
                try {
                    Technique.parse(id);
                } catch (IllegalArgumentException e) {
                    throw w.error(e.getMessage());
                }
                ids.add(id);
            }
            if (!ids.isEmpty()) {
                options.put("without", String.join("+", ids.stream().sorted().distinct().toList()));
            }
        }
        return new PlannerChoice(PlannerChoice.Kind.COSMA, "cosma", options);
    }

    private static void option(Map<String, SpecNode> f, String key, List<String> allowed, Map<String, String> options) {
        if (f.containsKey(key)) {
            String v = f.get(key).text(key);
            if (!allowed.contains(v)) {
                throw f.get(key).error("COSMA option " + key + " is one of " + String.join(", ", allowed) + ", got '"
                        + v + "'");
            }
            if (!v.equals(allowed.get(0))) {
                options.put(key, v);
            }
        }
    }

    /** An include or exclude entry: a case matches when every named field matches one of its glob patterns. */
    private record Filter(Map<String, List<Pattern>> fields) {
        boolean matches(SweepCase c) {
            for (Map.Entry<String, List<Pattern>> e : fields.entrySet()) {
                String value = switch (e.getKey()) {
                    case "graph" -> c.graph();
                    case "setting" -> c.setting();
                    case "budget" -> c.budget();
                    case "planner" -> c.planner().label();
                    case "recompute_weight" -> c.recomputeWeight() == null ? "none"
                            : SweepCase.weight(c.recomputeWeight());
                    default -> c.solver();
                };
                if (e.getValue().stream().noneMatch(m -> m.matcher(value).matches())) {
                    return false;
                }
            }
            return true;
        }
    }

    private static List<Filter> filters(SpecNode node) {
        if (node == null) {
            return List.of();
        }
        List<Filter> out = new ArrayList<>();
        for (SpecNode n : node.items()) {
            Map<String, List<Pattern>> fields = new LinkedHashMap<>();
            for (Map.Entry<String, SpecNode> e : n.fields("a filter").entrySet()) {
                if (!FILTER_KEYS.contains(e.getKey())) {
                    throw n.key(e.getKey()).error("a filter matches graph, setting, budget, planner, solver or "
                            + "recompute_weight, not '" + e.getKey() + "'");
                }
                List<Pattern> patterns = new ArrayList<>();
                for (String s : e.getValue().texts("a filter value")) {
                    patterns.add(wildcard(s));
                }
                fields.put(e.getKey(), patterns);
            }
            out.add(new Filter(fields));
        }
        return out;
    }

    /** A pattern where '*' matches any text (also '/') and '?' one character; everything else is literal. */
    private static Pattern wildcard(String text) {
        StringBuilder regex = new StringBuilder();
        for (String part : text.split("(?<=[*?])|(?=[*?])")) {
            regex.append(part.equals("*") ? ".*" : part.equals("?") ? "." : Pattern.quote(part));
        }
        return Pattern.compile(regex.toString());
    }

    static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }
}
