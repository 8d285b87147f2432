package dev.memplan.cli;

import java.util.function.Supplier;

/** A mistake of the user's (a missing file, a budget below M_R...): printed in one line, exit code 2. */
final class UserException extends RuntimeException {
    UserException(String message) {
        super(message);
    }

    /**
     * The value of {@code parse}, a check or parse of the library's: its {@link IllegalArgumentException}, whose
     * message names the place and the rule, is the user's mistake.
     */
    static <T> T of(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
    }
}
