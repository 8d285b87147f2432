package dev.memplan.model;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where library code sends a warning that belongs to no result (a back-end's quirk, a fallback taken once per
 * process): library code never prints. The command line installs a listener that prints each notice on standard
 * error; without one (a test, an embedding program) notices are dropped. A listener must be cheap and must not
 * throw; it may be called from several threads.
 */
public final class Notices {
    private static volatile Consumer<String> listener = notice -> { };

    private Notices() {
    }

    /** Sends every later notice to {@code value}. */
    public static void listen(Consumer<String> value) {
        listener = Objects.requireNonNull(value, "listener");
    }

    /** One notice, in words (no "memplan:" prefix: the listener adds what it wants). */
    public static void warn(String notice) {
        listener.accept(notice);
    }
}
