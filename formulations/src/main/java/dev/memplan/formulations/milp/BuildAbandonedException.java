package dev.memplan.formulations.milp;

/** A model build stopped by a {@link BuildGuard} (time limit or interrupt): the partial model is garbage. */
public final class BuildAbandonedException extends RuntimeException {
    public BuildAbandonedException(String message) {
        super(message);
    }
}
