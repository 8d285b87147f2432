package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Operator lists: one name a line, blanks and comments skipped; a schedule also from a plan's JSON. */
class OperatorListsTest {
    @Test
    void namesSkipBlankLinesAndComments() {
        assertEquals(List.of("a", "b c", "d"), OperatorLists.names("# order\n a \n\nb c\r\n  # not this\nd"));
        assertEquals(List.of("x", "y"), OperatorLists.schedule("x\ny\n", "s.txt").operators());
    }

    @Test
    void aScheduleArgumentIsTheDefaultOrderOrAFileCheckedAgainstTheGraph(@TempDir Path dir) throws Exception {
        Graph g = Graph.builder("g").activation("x", 1).activation("y", 1).activation("z", 1)
                .operator("a", List.of(), List.of("x")).operator("b", List.of("x"), List.of("y"))
                .operator("c", List.of(), List.of("z")).output("y").output("z").build();
        assertEquals(List.of("a", "b", "c"), OperatorLists.schedule(g, "default").operators());
        Path file = dir.resolve("order.txt");
        Files.writeString(file, "c\na\nb\n");
        assertEquals(List.of("c", "a", "b"), OperatorLists.schedule(g, file.toString()).operators());
        Files.writeString(file, "b\na\nc\n");
        String wrong = assertThrows(IllegalArgumentException.class, () -> OperatorLists.schedule(g, file.toString()))
                .getMessage();
        assertTrue(wrong.startsWith(file + ": not a schedule of graph 'g': "), wrong);
        String missing = assertThrows(IllegalArgumentException.class,
                () -> OperatorLists.schedule(g, dir.resolve("none.txt").toString())).getMessage();
        assertTrue(missing.startsWith("cannot read schedule file " + dir.resolve("none.txt") + ": "), missing);
    }
}
