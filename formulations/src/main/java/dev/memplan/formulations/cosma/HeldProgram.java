package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.BuildAbandonedException;
import dev.memplan.formulations.milp.BuildGuard;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Limits;
import java.util.List;
import java.util.function.Supplier;

/**
 * A program built within the heap and the run's limits, with its hold on the heap ({@link HeapRoom#reserve}),
 * released when it is closed at the end of its solve: under a work limit two cases of one JVM (a sweep's jobs) then
 * never hold more than the room together. Shared by {@link CosmaSolver} and {@link RecomputeSolver}.
 *
 * @param formulation the program
 * @param hold its hold on the heap
 * @param <F> the formulation's type
 */
record HeldProgram<F>(F formulation, HeapRoom.Hold hold) implements AutoCloseable {

    /**
     * Builds a program unless its estimate says it will not fit the heap (under a work limit half of -Xmx, else the
     * heap free now) or cannot be built in half of what is left; reserves the estimate's room first, waiting while
     * other cases of the JVM hold too much; abandons the build when the limits end meanwhile or the heap runs out
     * (the estimate was short). Null, with a note saying what was skipped and why, when it is not built.
     *
     * @param what the program's name in the note
     * @param make builds the formulation
     */
    static <F> HeldProgram<F> build(String what, ModelEstimate estimate, Limits limits, List<String> notes,
                                    Supplier<F> make) {
        // Under a work limit the decision depends on -Xmx alone (not on the free heap of the moment), as every
        // decision of a work-limited run must be the same on every run.
        String whyNot = limits.workMode()
                ? estimate.whyNotUnderWork(Runtime.getRuntime().maxMemory(), limits.budget().workLeft())
                : estimate.whyNot(HeapRoom.freeFor(estimate.bytes()), limits.budget().wallLeft());
        if (whyNot != null) {
            notes.add(what + " skipped (" + estimate + "): " + whyNot);
            return null;
        }
        HeapRoom.Hold hold = HeapRoom.reserve(estimate.bytes(), limits);
        if (hold == null) {
            notes.add(what + " skipped (" + estimate + "): stopped while waiting for the heap other jobs hold");
            return null;
        }
        try (BuildGuard guard = BuildGuard.until(limits.budget(), estimate.variables() + estimate.constraints())) {
            return new HeldProgram<>(make.get(), hold);
        } catch (BuildAbandonedException e) {
            hold.close();
            notes.add(what + " (" + estimate + "): " + e.getMessage().replaceFirst("^building model '[^']*' was ", ""));
            return null;
        } catch (OutOfMemoryError e) {
            // The estimate was short; the partial model is unreachable now, so the run can go on without it.
            hold.close();
            notes.add(what + " abandoned while building (" + estimate + "): out of memory");
            return null;
        }
    }

    @Override
    public void close() {
        hold.close();
    }
}
