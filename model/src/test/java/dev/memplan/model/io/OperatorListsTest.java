package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Operator lists: one name a line, blanks and comments skipped; a schedule also from a plan's JSON. */
class OperatorListsTest {
    @Test
    void namesSkipBlankLinesAndComments() {
        assertEquals(List.of("a", "b c", "d"), OperatorLists.names("# order\n a \n\nb c\r\n  # not this\nd"));
        assertEquals(List.of("x", "y"), OperatorLists.schedule("x\ny\n", "s.txt").operators());
    }
}
