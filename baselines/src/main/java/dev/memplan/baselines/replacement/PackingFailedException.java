package dev.memplan.baselines.replacement;

/**
 * A scheme that packs its segments after replacement (bytes-only mode) found no packing within the budget: the
 * replacement decisions do not fit as addresses, or the packer gave up. Not a bug, and not a claim that no plan
 * exists.
 */
public final class PackingFailedException extends RuntimeException {

    public PackingFailedException(String message) {
        super(message);
    }
}
