package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The heartbeat of long quiet work: a line per interval naming the stage, none after close, none for short work. */
class TickerTest {

    @Test
    void namesTheRunningStageAboutOncePerIntervalAndStopsWhenClosed() throws Exception {
        StringWriter buffer = new StringWriter();
        PrintWriter err = new PrintWriter(buffer);
        try (Ticker ticker = new Ticker(err, "reading", 100_000_000L)) {
            ticker.stage("solving at budget 42");
            Thread.sleep(550);
        }
        String text;
        synchronized (buffer) {
            text = buffer.toString();
        }
        long lines = text.lines().count();
        assertTrue(lines >= 3 && lines <= 6, text);
        assertTrue(text.lines().allMatch(l -> l.startsWith("  ... solving at budget 42 (") && l.endsWith(" s so far)")), text);
        Thread.sleep(300);
        assertEquals(text, buffer.toString(), "nothing after close");
    }

    @Test
    void staysSilentForWorkShorterThanTheIntervalOrWhenOtherProgressWasPrinted() throws Exception {
        StringWriter buffer = new StringWriter();
        try (Ticker ticker = new Ticker(new PrintWriter(buffer), "quick", 200_000_000L)) {
            for (int i = 0; i < 6; i++) {
                Thread.sleep(100);
                ticker.touch();
            }
        }
        assertEquals("", buffer.toString());
    }

    @Test
    void thePipelinesStageLinesArePrintedAndBecomeTheTickersStage() throws Exception {
        StringWriter buffer = new StringWriter();
        try (Ticker ticker = new Ticker(new PrintWriter(buffer), "reading", 100_000_000L)) {
            java.util.function.Consumer<String> progress = ticker.pipelineProgress();
            progress.accept("the starting plans ...");
            Thread.sleep(350);
        }
        String text;
        synchronized (buffer) {
            text = buffer.toString();
        }
        java.util.List<String> lines = text.lines().toList();
        assertEquals("the starting plans ...", lines.get(0));
        assertTrue(lines.size() >= 2 && lines.subList(1, lines.size()).stream()
                .allMatch(l -> l.startsWith("  ... the starting plans (")), text);
    }
}
