package dev.memplan.sweeps;

import dev.memplan.baselines.allocation.Allocators;
import dev.memplan.baselines.replacement.PackingFailedException;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Allocation;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Budget;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.FormatException;
import dev.memplan.model.io.MiniMallocCsv;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Runs one case to a row: reads the graph (or buffers), resolves the budget, runs the planner, checks the plan
 * with the {@link PlanChecker} (placements with the {@link BufferChecker}) and measures. What every sweep and the
 * {@code bench compare}/{@code bench cosma} commands run. COSMA starts, as in the paper's comparison, from the best
 * of the paper's four schemes (on the fixed order when the schedule is fixed), or from the just-in-time plan
 * ({@code start: jit}). A case that fails becomes an ERROR row with the reason, so one bad case does not stop a
 * sweep.
 *
 * <p>Graphs, M_R and the minimum-peak order (M_P, the {@code mpmf} schemes) are computed once per graph and tensor
 * setting in a JVM and shared by concurrent cases.
 */
public final class CaseRunner {
    private static final CaseRunner SHARED = new CaseRunner();
    private static final String MACHINE = machine();
    private static final Properties BUILD = build();
    private static final String VERSION = BUILD.getProperty("version", "unknown");
    private static final String COMMIT = BUILD.getProperty("commit", "unknown");
    private static final String SOLVERS = BUILD.getProperty("solvers", "unknown");
    /** Every case runs with this seed (the solvers' and memplan's own searches): a row names it. */
    private static final long SEED = 0L;

    /**
     * Graph contexts kept: a sweep's cases come graph by graph (spec order), so a few suffice, and the heap stays
     * bounded when a sweep walks through many large graphs.
     */
    private static final int KEPT_CONTEXTS = 8;

    /**
     * M_P is part of a case's definition (its budget), so it must not depend on the case's time limit or the
     * machine's load: it is computed once per graph and setting by a beam search of a width fixed by the graph's
     * size ({@link MinimumPeakScheduler#sizedWidth}: 4096 up to 1,000 operators), without a time limit and without
     * the minimum-peak program (whose time-limited answer depends on the machine).
     */
    private static final Limits M_P_LIMITS = new Limits(null, 1, 0.0, 0L);

    /** Most recently used last; guarded by itself. */
    private final Map<String, CompletableFuture<GraphContext>> contexts = new LinkedHashMap<>(16, 0.75f, true);

    /** The runner of this JVM (its graph cache is shared by every engine in it). */
    public static CaseRunner shared() {
        return SHARED;
    }

    /** A graph in a tensor setting, with its budgets' ingredients and the scheduler its mpmf schemes share. */
    private record GraphContext(Graph full, Graph graph, TensorSetting setting, long mr, MinimumPeakScheduler mpmf,
                                ScheduleResult mp) {
    }

    /** The case's outcome; never throws for a case's own failure (that is an ERROR row). */
    public CaseOutcome run(SweepCase c, String specHash) {
        long began = System.nanoTime();
        Row row = new Row(c, specHash);
        try {
            if (c.planner().kind() == PlannerChoice.Kind.ALLOCATOR) {
                return allocate(c, row);
            }
            return plan(c, row);
        } catch (SweepException | FormatException | UncheckedIOException | IllegalArgumentException
                 | dev.memplan.formulations.milp.NativeSolversUnavailableException e) {
            // User mistakes: a malformed file (FormatException), a graph breaking the model, a budget below M_R.
            return new CaseOutcome(row.error(e.getMessage(), seconds(began)), null, null);
        } catch (RuntimeException | Error e) {
            // Errors too (a native library that does not load, a failed class initializer): one case's failure,
            // not the sweep's.
            return new CaseOutcome(row.error("internal error (a bug in memplan): " + e, seconds(began)), null, null);
        }
    }

    /**
     * The ERROR row of a case that failed outside {@link #run} (an engine's task that failed around it), with the
     * reason.
     */
    public static CaseOutcome failed(SweepCase c, String specHash, String reason, double seconds) {
        return new CaseOutcome(new Row(c, specHash).error(reason, seconds), null, null);
    }

    private CaseOutcome plan(SweepCase c, Row row) {
        Limits limits = limits(c);
        GraphContext ctx = context(c.source(), TensorSetting.fromFileName(c.setting()), limits);
        row.mr = ctx.mr;
        row.mp = ctx.mp.peak();
        BudgetChoice budget = BudgetChoice.resolve(c.budget(), ctx.graph, ctx.setting, ctx.mpmf, limits);
        row.budgetBytes = budget.bytes();
        if (c.planner().kind() == PlannerChoice.Kind.SCHEME) {
            Scheme scheme = scheme(c.planner(), c.recomputeWeight(), ctx.mpmf);
            long began = System.nanoTime();
            Plan p;
            try {
                p = scheme.plan(ctx.full, ctx.setting, budget.bytes(), limits);
            } catch (PackingFailedException e) {
                row.status = SolveStatus.UNKNOWN.name();
                return new CaseOutcome(row.finish(seconds(began)), null, null);
            }
            CheckReport report = PlanChecker.requireValid(ctx.graph, p, scheme.name());
            row.status = SolveStatus.HEURISTIC.name();
            row.report(report);
            return new CaseOutcome(row.finish(p.solver().seconds()), PlanJson.toJson(p), "json");
        }
        String schedule = c.planner().option("schedule");
        Schedule fixed = switch (schedule) {
            case "default" -> Schedule.defaultOrder(ctx.graph);
            case "mpmf" -> ctx.mp.schedule();
            default -> null;
        };
        // The same case record and pipeline as memplan solve and compare: the same case gives the same row.
        SolveCase sc = c.solveCase();
        CosmaPipeline.Settings settings = sc.pipeline(ctx.graph, sc.cosma(CosmaObjective.TRAFFIC, fixed, null),
                ctx.mpmf).withSchemeStart(!c.planner().option("start").equals("jit"));
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, null).run(ctx.full, ctx.setting, budget.bytes(), limits,
                null);
        PlanResult r = o.result();
        row.status = r.status().name();
        row.bound = r.bound();
        row.gap = r.gap();
        row.work(limits);
        if (o.whole() != null && o.dnc() == null && o.whole().pruned() != null) {
            row.vars = (long) o.whole().pruned().variables();
            row.cons = (long) o.whole().pruned().constraints();
        }
        if (!r.planned()) {
            return new CaseOutcome(row.finish(r.seconds()), null, null);
        }
        row.report(PlanChecker.requireValid(ctx.graph, r.plan(), "cosma"));
        return new CaseOutcome(row.finish(r.seconds()), PlanJson.toJson(r.plan()), "json");
    }

    /**
     * The case's scheme, its {@code mpmf} order from the shared scheduler: a spill-only scheme by name, or a
     * recompute scheme ({@link Schemes#recomputing}) under the case's weight.
     */
    private static Scheme scheme(PlannerChoice p, Double weight, MinimumPeakScheduler mpmf) {
        if (!p.recomputes()) {
            return Schemes.byNames(List.of(p.name()), mpmf).get(0);
        }
        if (weight == null) {
            throw new SweepException(p.name() + " recomputes, which needs a recompute weight; the case has none");
        }
        String[] parts = p.name().split("/");
        Scheme named = Schemes.recomputing(p.name(), weight);
        return Schemes.byNames(List.of(parts[0] + "/" + parts[2] + "/" + parts[3]), mpmf).get(0)
                .recomputing(named.recomputation());
    }

    private CaseOutcome allocate(SweepCase c, Row row) {
        Limits limits = limits(c);
        BufferSet buffers = MiniMallocCsv.read(Path.of(c.source()));
        long capacity;
        if (c.budget().equals("file")) {
            Long fromFile = buffers.capacity() != null ? buffers.capacity()
                    : MiniMallocCsv.capacityFromFileName(Path.of(c.source()).getFileName().toString());
            if (fromFile == null) {
                throw new SweepException(c.graph() + ": capacity 'file' needs a file named X.<capacity>.csv");
            }
            capacity = fromFile;
        } else {
            capacity = Long.parseLong(c.budget().replace("_", ""));
        }
        row.budgetBytes = capacity;
        Allocation a = Allocators.byName(c.planner().name()).allocate(buffers, capacity, limits);
        row.status = a.status().name();
        row.work(limits);
        if (!a.solved()) {
            return new CaseOutcome(row.finish(a.seconds()), null, null);
        }
        BufferChecker.requireValid(a.placement(), capacity, c.planner().name());
        row.peakAddress = a.placement().height();
        return new CaseOutcome(row.finish(a.seconds()), MiniMallocCsv.toCsv(a.placement()), "csv");
    }

    private GraphContext context(String source, TensorSetting setting, Limits limits) {
        String key = source + "\u0001" + setting.fileName();
        CompletableFuture<GraphContext> mine = new CompletableFuture<>();
        CompletableFuture<GraphContext> f;
        synchronized (contexts) {
            f = contexts.putIfAbsent(key, mine);
            if (f == null && contexts.size() > KEPT_CONTEXTS) {
                // The least recently used context goes; a case still using it holds its own reference.
                contexts.remove(contexts.keySet().iterator().next());
            }
        }
        if (f == null) {
            try {
                Graph full = GraphSources.graph(source);
                Graph g = full.withSetting(setting);
                MinimumPeakScheduler mpmf = MinimumPeakScheduler.pinned(
                        MinimumPeakScheduler.sizedWidth(g.operatorCount()), Backend.CPSAT);
                mine.complete(new GraphContext(full, g, setting, Budgets.minimumRequired(g), mpmf,
                        mpmf.schedule(g, M_P_LIMITS)));
            } catch (RuntimeException | Error e) {
                synchronized (contexts) {
                    contexts.remove(key, mine);
                }
                mine.completeExceptionally(e);
            }
            f = mine;
        }
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + source, e);
        }
    }

    private static Limits limits(SweepCase c) {
        // Capped at about 31 years, so that a deadline in nanoseconds fits a long.
        Duration limit = c.timeLimit() == null ? null : Duration.ofMillis(Math.round(Math.min(c.timeLimit(), 1e9) * 1000));
        if (c.workLimit() != null) {
            // Counted work decides (each share of the pipeline is a share of it); the time limit, when given, is
            // the outer guard of wall time, as in memplan solve --work-limit W --time-limit T.
            return new Limits(c.threads(), 0.0, SEED, Budget.ofWork(c.workLimit(), limit), null);
        }
        // One budget for the case's steps (M_P, the starting schemes, the solve): the limit bounds the whole case.
        return new Limits(limit, c.threads(), 0.0, SEED);
    }

    private static double seconds(long began) {
        return (System.nanoTime() - began) / 1e9;
    }

    /** The row being filled in. */
    private static final class Row {
        final SweepCase c;
        final String specHash;
        Long budgetBytes;
        String status;
        Long compulsory;
        Long nonCompulsory;
        Long loads;
        Long spills;
        Long bound;
        Double gap;
        Long vars;
        Long cons;
        Long peakFootprint;
        Long peakAddress;
        Long mr;
        Long mp;
        Double workUsed;
        boolean wallStopped;
        Long recomputes;
        Long recomputeCost;
        Double objective;

        Row(SweepCase c, String specHash) {
            this.c = c;
            this.specHash = specHash;
        }

        /** The work the case used under its work limit, and whether the wall clock cut it short. */
        void work(Limits limits) {
            if (limits.workMode()) {
                workUsed = limits.budget().workUsed();
                wallStopped = limits.budget().wallStopped();
            }
        }

        void report(CheckReport r) {
            compulsory = r.traffic().compulsory();
            nonCompulsory = r.traffic().nonCompulsory();
            loads = r.traffic().loads();
            spills = r.traffic().spills();
            recomputes = r.traffic().recomputes();
            recomputeCost = r.traffic().recomputeCost();
            objective = Objective.of(r.traffic(), c.recomputeWeight() == null ? 0 : c.recomputeWeight()).value();
            peakFootprint = r.peakFootprint();
            peakAddress = r.peakAddress();
        }

        ResultRow finish(double seconds) {
            return build(status, seconds, null);
        }

        ResultRow error(String message, double seconds) {
            return build("ERROR", seconds, message == null ? "no message" : message);
        }

        private ResultRow build(String st, double seconds, String error) {
            return new ResultRow(c.key(), specHash, c.graph(), c.setting(), c.budget(), budgetBytes,
                    c.planner().label(), c.solver(), c.timeLimit(), c.threads(), c.repeat(), st, compulsory,
                    nonCompulsory, loads, spills, bound, gap, seconds, vars, cons, peakFootprint, peakAddress, mr, mp,
                    null, MACHINE, VERSION, Instant.now(), error, c.workLimit(), workUsed, reproducible(st),
                    COMMIT, c.solver().isEmpty() && c.planner().kind() != PlannerChoice.Kind.ALLOCATOR ? null : SOLVERS,
                    SEED, recomputes, recomputeCost, c.recomputeWeight(), objective);
        }

        /**
         * Whether the row is the same on any machine: a scheme's (deterministic, no limit decides it), or one under
         * a work limit that the wall clock cut nothing short of. Null for an ERROR row.
         */
        private Boolean reproducible(String st) {
            if (st.equals("ERROR")) {
                return null;
            }
            if (c.planner().kind() == PlannerChoice.Kind.SCHEME) {
                return true;
            }
            return c.workLimit() != null && !wallStopped;
        }
    }

    private static String machine() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "unknown-host";
            }
        }
        return host + ", " + Runtime.getRuntime().availableProcessors() + " cores, Java "
                + System.getProperty("java.version");
    }

    /** memplan's version and the solvers' (version.properties) and the commit it was built from (commit.properties). */
    private static Properties build() {
        Properties p = new Properties();
        for (String name : List.of("version.properties", "commit.properties")) {
            try (InputStream in = CaseRunner.class.getResourceAsStream("/dev/memplan/sweeps/" + name)) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException e) {
                // Left out: the row says "unknown".
            }
        }
        return p;
    }
}
