package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37.3: one meaning per exit code ({@link ExitCode}), the same in the code, every command's help, README.md
 * and docs/commands.md; and each command returns, for each code it can return, the code of that meaning.
 * (130 needs a real SIGINT in a JVM of its own: {@code InterruptTest}. 3 is a bug, which no command line reaches
 * on purpose.)
 */
class ExitCodeTest {
    @TempDir
    Path dir;

    private record Case(String command, ExitCode expected, String what, String... args) {
    }

    private List<Case> cases() throws IOException {
        Path plan = resource("fig1-48.plan.json");
        Path broken = dir.resolve("broken.plan.json");
        Files.writeString(broken, Files.readString(plan).replace("{\"start\": 1, \"end\": 3, \"offset\": 32",
                "{\"start\": 1, \"end\": 3, \"offset\": 8"));
        Path buffers = dir.resolve("input.12.csv");
        Files.writeString(buffers, "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n");
        Path mmap = dir.resolve("m.json");
        assertEquals(0, MainTest.run("mmap", "export", "gen:mmap:30:4", "--out", mmap.toString()).code());
        Path mapping = dir.resolve("mapping.json");
        assertEquals(0, MainTest.run("mmap", "solve", mmap.toString(), "--planner", "greedy", "--out",
                mapping.toString()).code());
        Path spec = dir.resolve("s.yaml");
        Files.writeString(spec, "graphs: [fig1]\nbudgets: [M_H]\nplanners: [paper]\n");
        String csv = dir.resolve("out.csv").toString();
        return List.of(
                new Case("solve", ExitCode.OK, "a plan", "solve", "fig1", "--budget", "M_H", "--work-limit", "1"),
                new Case("solve", ExitCode.NO, "peak below M_P: proven infeasible", "solve", "fig1", "--budget", "40",
                        "--objective", "peak"),
                new Case("solve", ExitCode.NOT_FOUND, "none found within the limits (was 1)", "solve", "densenet121",
                        "--budget", "0.5", "--objective", "peak", "--work-limit", "1"),
                new Case("solve", ExitCode.USER_ERROR, "a bad budget", "solve", "fig1", "--budget", "lots"),
                new Case("compare", ExitCode.OK, "the table", "compare", "fig1", "--budget", "M_H", "--no-cosma"),
                new Case("compare", ExitCode.USER_ERROR, "below M_R", "compare", "fig1", "--budget", "1"),
                new Case("allocate", ExitCode.OK, "packed", "allocate", buffers.toString()),
                new Case("allocate", ExitCode.NO, "proven not to fit", "allocate", buffers.toString(), "--capacity",
                        "11"),
                new Case("allocate", ExitCode.NOT_FOUND, "a heuristic gave up", "allocate", buffers.toString(),
                        "--capacity", "11", "--allocator", "tflite"),
                new Case("allocate", ExitCode.USER_ERROR, "no such file", "allocate", dir.resolve("no.1.csv").toString()),
                new Case("check", ExitCode.OK, "valid", "check", "fig1", plan.toString()),
                new Case("check", ExitCode.NO, "invalid", "check", "fig1", broken.toString()),
                new Case("check", ExitCode.USER_ERROR, "no such plan", "check", "fig1", dir.resolve("no.json").toString()),
                new Case("budgets", ExitCode.OK, "the budgets", "budgets", "fig1"),
                new Case("budgets", ExitCode.USER_ERROR, "no such graph", "budgets", "nosuchnet"),
                new Case("trace", ExitCode.OK, "a trace", "trace", "fig1", "--out", csv),
                new Case("trace", ExitCode.USER_ERROR, "no such graph", "trace", "nosuchnet", "--out", csv),
                new Case("convert", ExitCode.OK, "converted", "convert", "fig1", dir.resolve("g.json").toString()),
                new Case("convert", ExitCode.USER_ERROR, "no such graph", "convert", "nosuchnet",
                        dir.resolve("h.json").toString()),
                new Case("import", ExitCode.USER_ERROR, "no such model", "import", dir.resolve("no.onnx").toString()),
                new Case("zoo", ExitCode.OK, "the list", "zoo", "list"),
                new Case("zoo", ExitCode.USER_ERROR, "no such network", "zoo", "export", "nosuchnet",
                        dir.resolve("z").toString()),
                new Case("plot", ExitCode.OK, "a layout", "plot", "layout", "fig1", plan.toString(), "--out",
                        dir.resolve("l.svg").toString()),
                new Case("plot", ExitCode.NO, "an invalid plan is not drawn", "plot", "layout", "fig1",
                        broken.toString()),
                new Case("plot", ExitCode.USER_ERROR, "no such graph", "plot", "layout", "nosuchnet", plan.toString()),
                new Case("sweep", ExitCode.OK, "the cases", "sweep", spec.toString(), "--dry-run", "--db",
                        dir.resolve("s.duckdb").toString()),
                new Case("sweep", ExitCode.USER_ERROR, "no such spec", "sweep", dir.resolve("no.yaml").toString()),
                new Case("mmap", ExitCode.OK, "a mapping", "mmap", "solve", mmap.toString(), "--planner", "greedy"),
                new Case("mmap", ExitCode.OK, "valid", "mmap", "check", mmap.toString(), mapping.toString()),
                new Case("mmap", ExitCode.NO, "a broken rule", "mmap", "check", mmap.toString(), mapping.toString(),
                        "--capacity", "1"),
                new Case("mmap", ExitCode.USER_ERROR, "no such instance", "mmap", "solve",
                        dir.resolve("no.json").toString()));
    }

    @Test
    void everyCommandReturnsTheCodeOfWhatHappened() throws IOException {
        List<String> wrong = new ArrayList<>();
        Set<String> commands = new TreeSet<>();
        for (Case c : cases()) {
            MainTest.Result r = MainTest.run(c.args());
            commands.add(c.command());
            if (r.code() != c.expected().code()) {
                wrong.add(String.join(" ", c.args()) + " (" + c.what() + "): exit " + r.code() + ", expected "
                        + c.expected().code() + "\n" + r.out() + r.err());
            }
            if (c.expected() == ExitCode.USER_ERROR) {
                assertTrue(r.err().startsWith("memplan: error: ") && !r.err().contains("\tat "), r.err());
            }
        }
        assertEquals(List.of(), wrong);
        Set<String> all = new TreeSet<>(new picocli.CommandLine(new Main()).getSubcommands().keySet());
        all.removeAll(Set.of("help", "bench"));
        assertEquals(all, commands, "every command has its cases");
    }

    /** Every command's help lists every code with its meaning, from the enum. */
    @Test
    void everyHelpListsTheCodes() {
        for (String command : new picocli.CommandLine(new Main()).getSubcommands().keySet()) {
            if (command.equals("help")) {
                continue;
            }
            String help = MainTest.run(command, "--help").out().replaceAll("\\s+", " ");
            for (ExitCode c : ExitCode.values()) {
                assertTrue(help.contains(" " + c.code() + " " + c.meaning()), command + " --help lacks " + c + ": " + help);
            }
        }
    }

    /** README.md and docs/commands.md say the same, word for word. */
    @Test
    void theDocsSayTheSame() throws IOException {
        for (Path doc : List.of(Path.of("..", "README.md"), Path.of("..", "docs", "commands.md"))) {
            String text = Files.readString(doc);
            for (ExitCode c : ExitCode.values()) {
                assertTrue(text.contains("- " + c.code() + " " + c.meaning() + "\n"), doc + " lacks " + c);
            }
        }
    }

    private Path resource(String name) throws IOException {
        Path file = dir.resolve(name);
        try (InputStream in = Examples.class.getResourceAsStream("/dev/memplan/datasets/examples/" + name)) {
            Files.write(file, in.readAllBytes());
        }
        return file;
    }
}
