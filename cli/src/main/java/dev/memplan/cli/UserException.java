package dev.memplan.cli;

/** A mistake of the user's (a missing file, a budget below M_R...): printed in one line, exit code 2. */
final class UserException extends RuntimeException {
    UserException(String message) {
        super(message);
    }
}
