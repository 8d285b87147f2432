package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import dev.memplan.model.Graph;
import dev.memplan.model.io.GraphJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command end to end: outputs, exit codes, and one-line errors for user mistakes. */
class MainTest {
    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    private Path examplePlan() throws IOException {
        Path plan = dir.resolve("fig1-48.plan.json");
        try (var in = Examples.class.getResourceAsStream("/dev/memplan/datasets/examples/fig1-48.plan.json")) {
            Files.write(plan, in.readAllBytes());
        }
        return plan;
    }

    @Test
    void budgetsOfAnExample() {
        Result r = run("budgets", "fig1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("graph fig1: 7 operators, 9 tensors"), r.out());
        assertTrue(r.out().matches("(?s).*activations\\s+32\\s+64.*"), r.out());
        Result p = run("budgets", "params", "--setting", "all");
        assertTrue(p.out().matches("(?s).*all\\s+45066\\s+45066.*"), p.out());
        assertFalse(p.out().contains("activations "), p.out());
    }

    @Test
    void checkValidPlanPrintsTrafficAsIntegers() throws IOException {
        Result r = run("check", "fig1", examplePlan().toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("VALID"), r.out());
        assertTrue(r.out().matches("(?s).*\\ncompulsory\\s+16\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\nnon-compulsory\\s+24\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\npeak footprint\\s+48\\n.*"), r.out());
    }

    @Test
    void checkInvalidPlanListsEveryViolationAndExitsOne() throws IOException {
        Path plan = examplePlan();
        String broken = Files.readString(plan).replace("\"budget\": 48", "\"budget\": 40")
                .replace("{\"start\": 6, \"end\": 6, \"offset\": 0, \"origin\": \"loaded\"}",
                        "{\"start\": 6, \"end\": 6, \"offset\": 16, \"origin\": \"loaded\"}");
        Files.writeString(plan, broken);
        Result r = run("check", "fig1", plan.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("INVALID: "), r.out());
        assertTrue(r.out().contains("budget: tensor 'a3'"), r.out());
        assertTrue(r.out().contains("address-overlap: tensors 'a7' [16, 24) and 'a2' [16, 24) share addresses at timestep 6"), r.out());
    }

    @Test
    void checkUnderTheOtherSettingSaysSo() throws IOException {
        Result r = run("check", "fig1", examplePlan().toString(), "--setting", "all");
        assertTrue(r.out().startsWith("note: the plan says setting 'activations'; checking it as 'all'"), r.out());
        assertEquals(0, r.code());
    }

    @Test
    void convertWritesAGraphThatReadsBack() {
        Path in = dir.resolve("dag.json");
        Path out = dir.resolve("graph.json");
        String cosma = """
                {"name": "tiny", "dummy_input_tensors": ["d"], "graph_output_tensors": ["y"],
                 "tensor_list": ["d", "x", "h", "y"], "tensor_sizes": {"d": 0, "x": 12, "h": 6, "y": 3},
                 "dag": [{"name": "f", "input_nodes": [], "input_tensors": ["d", "x"], "output_tensors": ["h"]},
                         {"name": "g", "input_nodes": ["f"], "input_tensors": ["h"], "output_tensors": ["y"]}]}
                """;
        try {
            Files.writeString(in, cosma);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        Result r = run("convert", in.toString(), out.toString());
        assertEquals(0, r.code(), r.err());
        Graph g = GraphJson.read(out);
        assertEquals("tiny", g.name());
        assertEquals(3, g.tensorCount());
        assertTrue(g.isHost(g.tensorIndex("x")));
        Result b = run("budgets", out.toString());
        assertTrue(b.out().matches("(?s).*activations\\s+18\\s+18.*"), b.out());
    }

    @Test
    void userMistakesGetOneLineAndExitTwo() throws IOException {
        Result missing = run("budgets", "no/such/graph.json");
        assertEquals(2, missing.code());
        assertEquals("memplan: error: no such file: no/such/graph.json", missing.err().strip());

        Path cyclic = dir.resolve("cyclic.json");
        Files.writeString(cyclic, """
                {"format": "memplan-graph/1", "name": "c", "tensors": [{"name": "p", "size": 1, "kind": "activation"},
                 {"name": "q", "size": 1, "kind": "activation"}],
                 "operators": [{"name": "f", "inputs": ["q"], "outputs": ["p"]}, {"name": "g", "inputs": ["p"], "outputs": ["q"]}],
                 "outputs": []}
                """);
        Result cycle = run("budgets", cyclic.toString());
        assertEquals(2, cycle.code());
        assertTrue(cycle.err().contains(cyclic.toString()) && cycle.err().contains("cycle"), cycle.err());
        assertFalse(cycle.err().contains("\tat "), "no stack trace: " + cycle.err());

        Path negative = dir.resolve("negative.json");
        Files.writeString(negative, """
                {"format": "memplan-graph/1", "name": "n", "tensors": [{"name": "p", "size": -5, "kind": "activation"}],
                 "operators": [], "outputs": []}
                """);
        Result neg = run("budgets", negative.toString());
        assertEquals(2, neg.code());
        assertTrue(neg.err().contains("$.tensors[0].size"), neg.err());

        Result badSetting = run("budgets", "fig1", "--setting", "weights");
        assertEquals(2, badSetting.code());
        assertTrue(badSetting.err().contains("unknown tensor setting 'weights'"), badSetting.err());

        Result badOption = run("budgets", "fig1", "--nope");
        assertEquals(2, badOption.code());
        assertTrue(badOption.err().contains("Unknown option"), badOption.err());
    }

    @Test
    void helpAndVersion() {
        Result help = run("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("check") && help.out().contains("budgets") && help.out().contains("convert"));
        Result version = run("--version");
        assertEquals(0, version.code());
        assertTrue(version.out().startsWith("memplan "), version.out());
    }
}
