package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table of result rows as aligned text, CSV and Markdown, and a bench's sink that rewrites the files per row. */
class TextTableTest {
    @TempDir
    Path dir;

    @Test
    void rowsArePaddedToTheHeaderAndCleaned() {
        TextTable t = new TextTable("a", "b", "c");
        t.row("1", "x\ny");
        assertEquals("a,b,c\n1,x\\ny,\n", t.csv());
    }

    @Test
    void printsAlignedColumnsWithAndWithoutTheHeader() {
        TextTable t = TextTable.of(List.of(new String[] {"name", "v"}, new String[] {"a", "12"},
                new String[] {"longer", null}));
        StringWriter s = new StringWriter();
        t.print(new PrintWriter(s, true));
        assertEquals(List.of("name    v", "a       12", "longer"), s.toString().lines().toList());
        StringWriter rows = new StringWriter();
        t.printWithoutHeader(new PrintWriter(rows, true));
        assertEquals(List.of("a       12", "longer"), rows.toString().lines().toList());
    }

    @Test
    void csvQuotesCellsWithCommasAndMarkdownEscapesBars() {
        TextTable t = new TextTable("k", "v");
        t.row("a,b", "x|y");
        t.row("c", null);
        assertEquals("k,v\n\"a,b\",x|y\nc,\n", t.csv());
        assertEquals("| k | v |\n|---|---|\n| a,b | x\\|y |\n| c |  |\n", t.markdown());
    }

    @Test
    void theSinkPrintsEachRowAndRewritesBothFiles() throws Exception {
        Path csv = dir.resolve("t.csv");
        Path md = dir.resolve("t.md");
        StringWriter live = new StringWriter();
        TextTable t = new TextTable("k", "v");
        Consumer<String[]> sink = t.sink(csv, md, new PrintWriter(live));
        sink.accept(new String[] {"a", "1"});
        assertEquals("k,v\na,1\n", Files.readString(csv));
        sink.accept(new String[] {"b", "2"});
        assertEquals("k,v\na,1\nb,2\n", Files.readString(csv));
        assertEquals(t.markdown(), Files.readString(md));
        assertEquals(List.of("a  1", "b  2"), live.toString().lines().toList());
    }

    @Test
    void liveRunsTheBenchThroughItsSinkThenPrintsTheWholeTable() throws Exception {
        Path csv = dir.resolve("live.csv");
        StringWriter s = new StringWriter();
        List<Integer> seen = new ArrayList<>();
        TextTable.live(new String[] {"n"}, csv, new PrintWriter(s, true), rows -> {
            for (int i = 1; i <= 2; i++) {
                rows.accept(new String[] {Integer.toString(i)});
                seen.add(i);
            }
        });
        assertEquals(List.of(1, 2), seen);
        assertEquals("n\n1\n2\n", Files.readString(csv));
        assertEquals(List.of("n", "1", "2", "", "n", "1", "2"), s.toString().lines().toList());
    }
}
