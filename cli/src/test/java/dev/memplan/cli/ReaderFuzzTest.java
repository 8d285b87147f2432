package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memplan.datasets.Examples;
import dev.memplan.model.io.GraphJson;
import dev.memplan.model.io.RecomputeExample;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random mutations of valid files of the readers (memplan-graph/1, memplan-plan/1 and /2, MiniMalloc CSV, the COSMA
 * DAG JSON, sweep specs, memplan-mmap/1 instances, and the bytes of a DuckDB results database), run through the
 * command line as a user would: every run must end in a result
 * (exit 0, 1, or 4 for allocate) or in one line "memplan: error: ..." with exit 2; never exit 3, a stack trace
 * or an exception escaping. Mutations: truncation, byte changes, bytes that are not UTF-8, values replaced by
 * other types, huge, negative and non-finite numbers, fields removed, renamed and duplicated, deep nesting,
 * CSV lines and cells removed, duplicated and replaced.
 *
 * <p>Bounded: {@value #CASES} cases per format (about a second each on 2 cores). For a longer local run:
 * {@code -Dmemplan.fuzz.cases=5000 -Dmemplan.fuzz.seed=7 -Dmemplan.fuzz.log=messages.txt}.
 */
@Timeout(300)
class ReaderFuzzTest {
    private static final int CASES = Integer.getInteger("memplan.fuzz.cases", 150);
    private static final long SEED = Long.getLong("memplan.fuzz.seed", 20261123L);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Values that replace a JSON value or a CSV cell: other types, extremes, non-finite numbers. */
    private static final List<String> REPLACEMENTS = List.of("0", "-1", "1", "2", "7", "-7", "1.5", "-0.0", "1e400", "-1e400",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "4611686018427387904",
            "2147483647", "2147483648", "99999999999999999999999999", "NaN", "Infinity", "-Infinity", "\"12\"", "\"\"",
            "\"a0\"", "\"n1\"", "\"x\\u0000\\u001b[2J\\n\"", "null", "true", "false", "[]", "{}", "[1, 2]",
            "{\"name\": 3}", "\"activation\"", "\"parameter\"", "\"loaded\"", "\"created\"");

    @TempDir
    Path dir;

    @Test
    void graphFiles() throws IOException {
        Path plan = resource("fig1-48.plan.json");
        Random pick = new Random(SEED);
        // Every fourth graph also goes through the baselines (schedulers, replacement, TFLite's arena, M_R).
        fuzz("graph.json", GraphJson.toJson(Examples.graph("fig1")), SEED, true, file -> pick.nextInt(4) == 0
                ? new String[] {"compare", file, "--budget", "M_R", "--no-cosma", "--setting", "all"}
                : new String[] {"check", file, plan.toString()});
    }

    @Test
    void planFiles() throws IOException {
        fuzz("plan.json", Files.readString(resource("fig1-48.plan.json")), SEED + 1, true,
                file -> new String[] {"check", "fig1", file});
    }

    /** memplan-plan/2: a plan that runs a again at 2 (the example of memory-model.md). */
    @Test
    void recomputingPlanFiles() throws IOException {
        Path graph = dir.resolve("again.json");
        Files.writeString(graph, RecomputeExample.graphJson());
        String plan = RecomputeExample.planJson();
        fuzz("plan2.json", plan, SEED + 7, true, file -> new String[] {"check", graph.toString(), file});
    }

    @Test
    void miniMallocCsvFiles() {
        String csv = "id,lower,upper,size,alignment\nb1,0,3,4,1\nb2,3,9,4,2\nb3,0,9,4,1\nb4,9,21,4,4\nb5,0,21,4,1\n";
        String[] allocators = {"minimalloc", "greedy", "bestfit", "tflite", "skyline", "telamalloc"};
        Random pick = new Random(SEED + 2);
        fuzz("buffers.12.csv", csv, SEED + 2, false, file -> new String[] {"allocate", file, "--allocator",
            allocators[pick.nextInt(allocators.length)], "--time-limit", "2"});
    }

    @Test
    void cosmaDagFiles() {
        String dag = """
                {"name": "tiny", "dummy_input_tensors": ["d"], "graph_output_tensors": ["y"],
                 "tensor_list": ["d", "x", "h", "y"], "tensor_sizes": {"d": 0, "x": 12, "h": 6, "y": 3},
                 "dag": [{"name": "f", "input_nodes": [], "input_tensors": ["d", "x"], "output_tensors": ["h"]},
                         {"name": "g", "input_nodes": ["f"], "input_tensors": ["h"], "output_tensors": ["y"]}]}
                """;
        Path out = dir.resolve("converted.json");
        fuzz("dag.json", dag, SEED + 3, true, file -> new String[] {"convert", file, out.toString()});
    }

    /** Sweep specs (JSON, as a .json spec is read): a dry run lists the cases or names the mistake. */
    @Test
    void sweepSpecs() {
        String spec = """
                {"name": "fuzz", "graphs": ["fig1", "chain"], "settings": ["activations", "all"],
                 "budgets": ["M_R", "0.5", "4096"], "planners": ["paper", {"name": "cosma", "schedule": "default",
                 "without": ["prune"], "decompose": "none"}], "solvers": ["cpsat", "scip"], "work_limits": [1.5],
                 "time_limits": [30], "threads": [1, 2], "repeats": 2,
                 "include": [{"planner": ["cosma*", "default/*"]}], "exclude": [{"solver": "scip", "budget": "4096"}]}
                """;
        Path db = dir.resolve("never.duckdb");
        fuzz("spec.json", spec, SEED + 4, true, file -> new String[] {"sweep", file, "--dry-run", "--db", db.toString()});
        assertFalse(Files.exists(db), "a dry run creates no database");
    }

    /** memplan-mmap/1 instance files, mapped by the greedy player (every value it reads is checked first). */
    @Test
    void mmapInstances() throws IOException {
        Path valid = dir.resolve("valid.mmap.json");
        MainTest.Result export = MainTest.run("mmap", "export", "gen:mmap:10:3", "--out", valid.toString());
        assertEquals(0, export.code(), export.err());
        fuzz("instance.json", Files.readString(valid), SEED + 5, true,
                file -> new String[] {"mmap", "solve", file, "--planner", "greedy", "--time-limit", "5"});
    }

    /**
     * A results database with bytes changed or cut off (a disk error, a copy cut short): export reports it as a
     * user-facing error (DuckDB checks its blocks' checksums) or exports what is readable, never a crash.
     */
    @Test
    void resultsDatabases() throws IOException {
        Path spec = dir.resolve("s.yaml");
        Files.writeString(spec, "graphs: [fig1]\nbudgets: [M_R]\nplanners: [default/belady/tflite]\n");
        Path db = dir.resolve("r.duckdb");
        MainTest.Result sweep = MainTest.run("sweep", spec.toString(), "--db", db.toString());
        assertEquals(0, sweep.code(), sweep.err());
        byte[] valid = Files.readAllBytes(db);
        Random random = new Random(SEED + 6);
        int errors = 0;
        int cases = Math.max(10, CASES / 10);
        for (int c = 0; c < cases; c++) {
            byte[] mutant = valid.clone();
            if (random.nextBoolean()) {
                mutant = java.util.Arrays.copyOf(mutant, random.nextInt(mutant.length));
            } else {
                for (int k = 1 + random.nextInt(20); k > 0; k--) {
                    mutant[random.nextInt(mutant.length)] = (byte) random.nextInt(256);
                }
            }
            Path file = dir.resolve("m" + c + ".duckdb");
            Files.write(file, mutant);
            MainTest.Result r = MainTest.run("sweep", "export", file.toString(), "--csv", dir.resolve("m.csv").toString());
            String context = "case " + c + ", exit " + r.code() + "\n" + r.err();
            if (r.code() == ExitCode.USER_ERROR.code()) {
                errors++;
                assertTrue(r.err().startsWith("memplan: error: "), context);
                assertEquals(1, r.err().strip().lines().count(), context);
            } else {
                assertEquals(0, r.code(), context);
            }
        }
        assertTrue(errors > 0, "some mutants must be refused");
    }

    private Path resource(String name) throws IOException {
        Path file = dir.resolve(name);
        try (InputStream in = Examples.class.getResourceAsStream("/dev/memplan/datasets/examples/" + name)) {
            Files.write(file, in.readAllBytes());
        }
        return file;
    }

    /** Runs CASES mutants of {@code valid}, each written to {@code fileName}, through the command. */
    private void fuzz(String fileName, String valid, long seed, boolean json, Function<String, String[]> command) {
        MainTest.Result original = runOn(fileName, valid.getBytes(StandardCharsets.UTF_8), command);
        assertEquals(0, original.code(), "the unmutated file must be valid: " + original.out() + original.err());
        Random random = new Random(seed);
        int[] codes = new int[5];
        for (int c = 0; c < CASES; c++) {
            byte[] mutant = valid.getBytes(StandardCharsets.UTF_8);
            int mutations = 1 + random.nextInt(3);
            for (int m = 0; m < mutations; m++) {
                mutant = json ? mutateJson(mutant, random) : mutateCsv(mutant, random);
            }
            MainTest.Result r;
            try {
                r = runOn(fileName, mutant, command);
            } catch (Throwable t) {
                throw new AssertionError("case " + c + " (seed " + seed + ") escaped: " + t + "\n" + show(mutant), t);
            }
            codes[r.code()]++;
            log(r.err());
            String context = "case " + c + " (seed " + seed + "), exit " + r.code() + "\n" + r.err() + "\n--- input:\n"
                    + show(mutant);
            switch (r.code()) {
                case 0, 1, 4 -> assertFalse(r.err().contains("\tat "), context);
                case 2 -> {
                    assertTrue(r.err().startsWith("memplan: error: "), context);
                    assertEquals(1, r.err().strip().lines().count(), context);
                    assertFalse(r.err().contains("Exception") || r.err().contains("Source: REDACTED"), context);
                }
                default -> fail("exit " + r.code() + " is an internal error: " + context);
            }
        }
        assertTrue(codes[ExitCode.USER_ERROR.code()] > CASES / 4, "most mutants are broken files: " + java.util.Arrays.toString(codes));
    }

    /** With {@code -Dmemplan.fuzz.log=FILE}, every message is appended there, to read what users would see. */
    private static void log(String err) {
        String file = System.getProperty("memplan.fuzz.log");
        if (file != null && !err.isBlank()) {
            try {
                Files.write(Path.of(file), err.getBytes(StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
    }

    private MainTest.Result runOn(String fileName, byte[] content, Function<String, String[]> command) {
        Path file = dir.resolve(fileName);
        try {
            Files.write(file, content);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return MainTest.run(command.apply(file.toString()));
    }

    private static String show(byte[] mutant) {
        String text = new String(mutant, StandardCharsets.UTF_8);
        return text.length() > 3000 ? text.substring(0, 3000) + "... (" + text.length() + " characters)" : text;
    }

    // ---- mutations ----

    private static byte[] mutateJson(byte[] bytes, Random random) {
        int kind = random.nextInt(10);
        if (kind < 5) {
            byte[] structural = mutateTree(bytes, random);
            if (structural != null) {
                return structural;
            }
        }
        return switch (kind) {
            case 5 -> duplicateField(bytes, random);
            case 6 -> replaceToken(bytes, random);
            default -> mutateBytes(bytes, random);
        };
    }

    private static byte[] mutateCsv(byte[] bytes, Random random) {
        List<String> lines = new ArrayList<>(List.of(new String(bytes, StandardCharsets.UTF_8).split("\n", -1)));
        int line = random.nextInt(lines.size());
        switch (random.nextInt(8)) {
            case 0 -> lines.remove(line);
            case 1 -> lines.add(line, lines.get(random.nextInt(lines.size())));
            case 2, 3 -> {
                String[] cells = lines.get(line).split(",", -1);
                cells[random.nextInt(cells.length)] = random.nextBoolean() ? strip(pick(REPLACEMENTS, random))
                        : Long.toString(random.nextLong() >> random.nextInt(64));
                lines.set(line, String.join(",", cells));
            }
            case 4 -> lines.set(line, lines.get(line) + "," + strip(pick(REPLACEMENTS, random)));
            case 5 -> lines.set(line, lines.get(line).replace(",", random.nextBoolean() ? ";" : ",,"));
            default -> {
                return mutateBytes(bytes, random);
            }
        }
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    private static String strip(String value) {
        return value.replace("\"", "");
    }

    /** Byte-level: truncation, a changed byte, bytes that are not UTF-8, a cut-out range, a repeated range. */
    private static byte[] mutateBytes(byte[] bytes, Random random) {
        if (bytes.length == 0) {
            return new byte[] {(byte) random.nextInt(256)};
        }
        int at = random.nextInt(bytes.length);
        switch (random.nextInt(5)) {
            case 0 -> {
                return java.util.Arrays.copyOf(bytes, at);
            }
            case 1 -> {
                byte[] copy = bytes.clone();
                copy[at] = (byte) random.nextInt(256);
                return copy;
            }
            case 2 -> {
                byte[] bad = pick(List.of(new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xC3, '('},
                        new byte[] {(byte) 0xE9}, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {0}), random);
                return splice(bytes, at, at, bad);
            }
            case 3 -> {
                int end = Math.min(bytes.length, at + 1 + random.nextInt(40));
                return splice(bytes, at, end, new byte[0]);
            }
            default -> {
                int end = Math.min(bytes.length, at + 1 + random.nextInt(40));
                return splice(bytes, end, end, java.util.Arrays.copyOfRange(bytes, at, end));
            }
        }
    }

    private static byte[] splice(byte[] bytes, int from, int to, byte[] insert) {
        byte[] out = new byte[bytes.length - (to - from) + insert.length];
        System.arraycopy(bytes, 0, out, 0, from);
        System.arraycopy(insert, 0, out, from, insert.length);
        System.arraycopy(bytes, to, out, from + insert.length, bytes.length - to);
        return out;
    }

    /** Replaces one scalar token of the text (a number, string or literal) with a replacement or deep nesting. */
    private static byte[] replaceToken(byte[] bytes, Random random) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("-?\\d++(?:\\.\\d++)?+(?:[eE][+-]?\\d++)?+|\"(?:[^\"\\\\]++|\\\\.)*+\"|true|false|null").matcher(text);
        List<int[]> tokens = new ArrayList<>();
        while (m.find()) {
            tokens.add(new int[] {m.start(), m.end()});
        }
        if (tokens.isEmpty()) {
            return mutateBytes(bytes, random);
        }
        int[] t = pick(tokens, random);
        String replacement = random.nextInt(6) == 0 ? nested(random) : pick(REPLACEMENTS, random);
        return (text.substring(0, t[0]) + replacement + text.substring(t[1])).getBytes(StandardCharsets.UTF_8);
    }

    /** Arrays or objects nested up to past the parser's depth limit. */
    private static String nested(Random random) {
        int depth = pick(List.of(2, 50, 999, 1001, 5000), random);
        return random.nextBoolean() ? "[".repeat(depth) + "1" + "]".repeat(depth)
                : "{\"a\": ".repeat(depth) + "1" + "}".repeat(depth);
    }

    /** Repeats the first field of a random object right after its brace: a duplicated key. */
    private static byte[] duplicateField(byte[] bytes, Random random) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{\\s*(\"[^\"]*\"\\s*:\\s*[^,{}\\[\\]]+),").matcher(text);
        List<int[]> fields = new ArrayList<>();
        while (m.find()) {
            fields.add(new int[] {m.start(1), m.end(1)});
        }
        if (fields.isEmpty()) {
            return mutateBytes(bytes, random);
        }
        int[] f = pick(fields, random);
        return (text.substring(0, f[1]) + ", " + text.substring(f[0], f[1]) + text.substring(f[1]))
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * On the parsed tree: a field removed or renamed, a value replaced by another type or an extreme number, an
     * array element removed or repeated, an unknown field added. Null when the text does not parse.
     */
    private static byte[] mutateTree(byte[] bytes, Random random) {
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            return null;
        }
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        if (containers.isEmpty()) {
            return null;
        }
        JsonNode target = pick(containers, random);
        JsonNode value = replacementNode(random);
        if (target instanceof ObjectNode object && !object.isEmpty()) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            String name = pick(names, random);
            switch (random.nextInt(4)) {
                case 0 -> object.remove(name);
                case 1 -> object.set(name + (random.nextBoolean() ? "s" : ""), object.remove(name));
                case 2 -> object.set("unknown", value);
                default -> object.set(name, value);
            }
        } else if (target instanceof ArrayNode array && !array.isEmpty()) {
            int i = random.nextInt(array.size());
            switch (random.nextInt(3)) {
                case 0 -> array.remove(i);
                case 1 -> array.add(array.get(i).deepCopy());
                default -> array.set(i, value);
            }
        } else {
            return null;
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static JsonNode replacementNode(Random random) {
        Set<String> nonJson = Set.of("NaN", "Infinity", "-Infinity");
        String text = pick(REPLACEMENTS, random);
        try {
            return nonJson.contains(text) ? JSON.getNodeFactory().textNode(text) : JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError(text, e);
        }
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            Iterator<JsonNode> children = node.elements();
            children.forEachRemaining(child -> collect(child, out));
        }
    }

    private static <T> T pick(List<T> values, Random random) {
        return values.get(random.nextInt(values.size()));
    }
}
