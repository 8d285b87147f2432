package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.function.Executable;

/** Asserts that a reader fails with a {@link FormatException} naming the file, the place and the problem. */
final class FormatErrors {

    private FormatErrors() {
    }

    static FormatException assertFormatError(Executable read, String file, String where, String problemPart) {
        FormatException e = assertThrows(FormatException.class, read);
        assertEquals(file, e.file(), e.getMessage());
        assertEquals(where, e.where(), e.getMessage());
        assertTrue(e.problem().contains(problemPart), () -> "expected '" + problemPart + "' in: " + e.getMessage());
        assertEquals(file + ": " + where + ": " + e.problem(), e.getMessage());
        return e;
    }
}
