package dev.memplan.sweeps;

import dev.memplan.model.io.AtomicFiles;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs a spec into a database: skips the cases whose key is already there (so a re-run resumes), runs the rest on
 * an engine, and for each outcome writes the checked plan file and then inserts the row (one transaction), so a kill
 * at any moment loses at most the cases in flight. Progress on stderr: done/total, elapsed, an estimate of the time
 * left, and the case's status and traffic.
 */
public final class SweepRun {

    private SweepRun() {
    }

    /** How a run went: cases in the spec, found finished, run now, and of those ERROR rows. */
    public record Summary(int total, int skipped, int ran, int errors) {
    }

    /**
     * The dry run of {@code spec} against the results database {@code db} (missing: nothing finished): a line per
     * case (key, whether it is finished, parameters), then the counts.
     */
    public static List<String> dryRun(SweepSpec spec, Path db) {
        Set<String> finished = Files.isRegularFile(db) ? finishedKeys(db) : Set.of();
        List<String> lines = new java.util.ArrayList<>();
        for (SweepCase c : spec.cases()) {
            lines.add(c.key() + "  " + (finished.contains(c.key()) ? "done  " : "to run") + "  " + c.describe());
        }
        long done = spec.cases().stream().filter(c -> finished.contains(c.key())).count();
        lines.add(spec.cases().size() + " cases, " + done + " in " + db);
        return lines;
    }

    private static Set<String> finishedKeys(Path db) {
        try (ResultsDb results = ResultsDb.open(db)) {
            return results.finishedKeys();
        }
    }

    /** Where a run's plans go by default: beside the database, its name without extension and -plans. */
    public static Path defaultPlans(Path db) {
        String name = db.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return db.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + "-plans");
    }

    /**
     * @param plans folder for the plan files (created when needed); null: plans are checked but not written
     * @param listener also told of each new row (after it is stored); may be null
     */
    public static Summary run(SweepSpec spec, ResultsDb db, Path plans, SweepEngine engine, SweepEngine.Options options,
                              PrintWriter progress, Consumer<ResultRow> listener) {
        engine.check(options);
        Set<String> finished = db.finishedKeys();
        List<SweepCase> todo = spec.cases().stream().filter(c -> !finished.contains(c.key())).toList();
        int skipped = spec.cases().size() - todo.size();
        progress.println("sweep " + spec.name() + ": " + spec.cases().size() + " cases, " + skipped
                + " already in the database, " + todo.size() + " to run on engine " + engine.name() + " ("
                + options.jobs() + (options.jobs() == 1 ? " job" : " jobs")
                + (options.master() == null ? "" : ", master " + options.master()) + ")");
        progress.flush();
        try {
            if (plans != null) {
                Files.createDirectories(plans);
            }
        } catch (IOException e) {
            throw new SweepException("cannot create the plans folder " + plans + ": " + e.getMessage(), e);
        }
        long began = System.nanoTime();
        int[] counts = new int[2];
        double[] firstDone = new double[1];
        engine.run(todo, spec.hash(), options, outcome -> {
            ResultRow row = outcome.row().withSpecHash(spec.hash());
            if (outcome.planText() != null && plans != null) {
                Path file = plans.resolve(fileName(row) + "." + outcome.planExtension());
                AtomicFiles.write(file, outcome.planText());
                row = row.withPlanPath(file.toString());
            }
            db.insert(row);
            counts[0]++;
            if (row.status().equals("ERROR")) {
                counts[1]++;
            }
            double elapsed = (System.nanoTime() - began) / 1e9;
            if (counts[0] == 1) {
                firstDone[0] = elapsed;
            }
            double left = timeLeft(elapsed, firstDone[0], row.seconds(), counts[0], todo.size() - counts[0],
                    options.jobs());
            progress.println(String.format(Locale.ROOT, "[%d/%d] %s elapsed, ~%s left: %s %s %s %s %s%s",
                    skipped + counts[0], spec.cases().size(), clock(elapsed), clock(left), row.graph(), row.setting(),
                    row.budget(), row.planner() + (row.recomputeWeight() == null ? ""
                            : " lambda=" + SweepCase.weight(row.recomputeWeight())), row.status(),
                    row.error() != null ? " (" + row.error() + ")"
                            : row.trafficNonCompulsory() != null ? " " + row.trafficNonCompulsory() : ""));
            progress.flush();
            if (listener != null) {
                listener.accept(row);
            }
        });
        return new Summary(spec.cases().size(), skipped, counts[0], counts[1]);
    }

    /** A readable, unique file name: graph-setting-budget-planner-key, other characters replaced by '_'. */
    static String fileName(ResultRow row) {
        String name = String.join("-", row.graph(), row.setting(), row.budget(), row.planner(), row.caseKey());
        return name.replaceAll("[^A-Za-z0-9._=+-]", "_");
    }

    /**
     * The time the cases still to run will take: the pace since the first case of this run finished (the
     * engine's start-up, a Spark session or the solvers' native libraries, and the cases a resume skipped count
     * for nothing); after the first case, its own time per job.
     *
     * @param elapsed   seconds since this run began
     * @param firstDone seconds at which its first case finished
     * @param seconds   the time of the case just finished
     * @param done      cases this run finished
     * @param left      cases still to run
     */
    static double timeLeft(double elapsed, double firstDone, double seconds, int done, int left, int jobs) {
        double pace = done >= 2 ? (elapsed - firstDone) / (done - 1) : seconds / Math.max(1, jobs);
        return Math.max(0, pace) * left;
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
