package dev.memplan.sweeps;

import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * Where a sweep's cases run. The local pool ({@link LocalEngine}) is built in; other engines (the Spark engine of
 * module {@code sweeps-spark}) are found with {@link ServiceLoader} when their jar is on the classpath, so nothing
 * else carries their dependencies.
 */
public interface SweepEngine {

    /** The name {@code --engine} selects. */
    String name();

    /**
     * Runs every case and hands each outcome to {@code sink} on the calling thread as it arrives (the sink owns the
     * database, which one thread writes). Returns when every case has an outcome.
     */
    void run(List<SweepCase> cases, String specHash, Options options, Consumer<CaseOutcome> sink);

    /**
     * Throws {@link SweepException} when {@code options} cannot work (a malformed or unreachable Spark master), so a
     * sweep stops in one line before it starts; the local pool takes any.
     */
    default void check(Options options) {
    }

    /**
     * @param jobs cases run side by side (the local pool's threads; Spark's parallelism when positive)
     * @param master the Spark master ({@code local[2]}, {@code spark://host:7077}); null: the engine's default
     */
    record Options(int jobs, String master) {
    }

    /** The engine of that name: {@code local}, or one on the classpath. */
    static SweepEngine byName(String name) {
        if (name.equals("local")) {
            return new LocalEngine();
        }
        for (SweepEngine e : ServiceLoader.load(SweepEngine.class)) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        throw new SweepException("no sweep engine '" + name + "' on the classpath: 'local' is built in; 'spark' comes "
                + "with the sweeps-spark module (run ./memplan-spark, or spark-submit as the README shows)");
    }
}
