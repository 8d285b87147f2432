package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {
    @TempDir
    Path dir;

    @Test
    void comparesThePaperSchemesWithCosmaAndWritesCsv() throws IOException {
        Path csv = dir.resolve("fig1.csv");
        MainTest.Result r = MainTest.run("compare", "fig1", "--budget", "M_H", "--setting", "all", "--csv", csv.toString());
        assertEquals(0, r.code(), r.err());
        for (String scheme : List.of("default/belady/tflite", "default/greedy/tflite", "mpmf/belady/tflite",
                "mpmf/greedy/tflite")) {
            assertTrue(r.out().contains(scheme), r.out());
        }
        // fig1 at M_H = 48 with parameters: COSMA's proven optimum is 24 bytes of non-compulsory traffic.
        assertTrue(r.out().matches("(?s).*cosma/cpsat[^\\n]*OPTIMAL\\s+24\\s.*"), r.out());
        assertTrue(r.out().contains("every plan checked: VALID"), r.out());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(6, lines.size());
        assertTrue(lines.get(0).startsWith("planner,status,non-compulsory"), lines.get(0));
    }

    @Test
    void benchCosmaWritesCsvAndMarkdown() throws IOException {
        Path csv = dir.resolve("c.csv");
        Path md = dir.resolve("c.md");
        MainTest.Result r = MainTest.run("bench", "cosma", "--networks", "resnext50", "--budgets", "M_R", "--settings",
                "activations", "--time-limit", "60", "--csv", csv.toString(), "--markdown", md.toString(),
                "--plans", dir.resolve("plans").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*resnext50\\s+activations\\s+M_R\\s+\\d+\\s+free\\s+\\d+\\s+OPTIMAL.*"), r.out());
        assertEquals(2, Files.readAllLines(csv).size());
        assertTrue(Files.readString(md).startsWith("| network | setting | budget |"), Files.readString(md));
        Path plan;
        try (var files = Files.list(dir.resolve("plans"))) {
            plan = files.filter(p -> p.getFileName().toString().startsWith("resnext50-activations-M_R-cosma-"))
                    .findFirst().orElseThrow();
        }
        MainTest.Result check = MainTest.run("check", "resnext50", plan.toString());
        assertEquals(0, check.code(), check.err());
        assertTrue(check.out().startsWith("VALID"), check.out());
    }

    @Test
    void benchCompareRunsThroughTheSweepAndResumesFromItsDatabase() throws IOException {
        Path csv = dir.resolve("b.csv");
        Path db = dir.resolve("b.duckdb");
        String[] args = {"bench", "compare", "--networks", "resnext50", "--budgets", "M_R", "--settings", "activations",
            "--time-limit", "60", "--csv", csv.toString(), "--db", db.toString(), "--jobs", "2"};
        MainTest.Result r = MainTest.run(args);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*resnext50\\s+activations\\s+M_R\\s+2408448(\\s+\\d+){5}\\s+0\\s+OPTIMAL.*"), r.out());
        assertTrue(r.err().contains("5 to run"), r.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(2, lines.size());
        assertTrue(lines.get(0).startsWith("network,setting,budget,bytes,default/belady/tflite,"), lines.get(0));
        MainTest.Result again = MainTest.run(args);
        assertEquals(0, again.code(), again.err());
        assertTrue(again.err().contains("5 already in the database, 0 to run"), again.err());
        assertEquals(lines, Files.readAllLines(csv));
    }

    @Test
    void unknownSchemeAndLowBudgetAreUserErrors() {
        MainTest.Result r = MainTest.run("compare", "fig1", "--budget", "M_R", "--schemes", "default/fifo/tflite");
        assertEquals(ExitCode.USER_ERROR.code(), r.code());
        assertTrue(r.err().contains("unknown scheme 'default/fifo/tflite'"), r.err());
        MainTest.Result low = MainTest.run("compare", "fig1", "--budget", "10");
        assertEquals(ExitCode.USER_ERROR.code(), low.code());
        assertTrue(low.err().contains("below M_R = 32"), low.err());
    }

    @Test
    void schemesOnlyOnAZooNetwork() {
        MainTest.Result r = MainTest.run("compare", "resnet50", "--budget", "M_R", "--no-cosma", "--schemes",
                "default/belady/tflite,mpmf/lru/firstfit");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("mpmf/lru/firstfit") && !r.out().contains("cosma/"), r.out());
    }
}
