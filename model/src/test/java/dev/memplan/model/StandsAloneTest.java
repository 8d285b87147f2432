package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A clone of the repository is a complete project: no source, test, doc or script refers to the folder beside
 * the repository or to the build machine's work folder (BENCHMARKS.md, a log of runs, may name them). Scans the
 * root's documents and scripts, {@code docs/}, {@code .ci/} and every module folder (without {@code target/}).
 */
class StandsAloneTest {
    /** Written in two pieces so that this file does not contain what it looks for. */
    private static final List<String> OUTSIDE = List.of(".." + "/shared", "/wo" + "rk/");
    private static final Set<String> EXEMPT = Set.of("BENCHMARKS.md");

    @Test
    void noFileOfTheProjectReachesOutsideTheRepository() throws IOException {
        Path root = repositoryRoot();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> top = Files.list(root)) {
            for (Path p : top.sorted().toList()) {
                String name = p.getFileName().toString();
                if (Files.isDirectory(p)) {
                    if (name.equals("docs") || name.equals(".ci") || Files.isRegularFile(p.resolve("pom.xml"))) {
                        collect(p, files);
                    }
                } else if (!EXEMPT.contains(name) && (name.endsWith(".md") || name.equals("pom.xml")
                        || name.startsWith("memplan"))) {
                    files.add(p);
                }
            }
        }
        assertTrue(files.contains(root.resolve("README.md")), "the scan must see README.md in " + root);
        List<String> found = new ArrayList<>();
        for (Path file : files) {
            String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            for (String outside : OUTSIDE) {
                if (text.contains(outside)) {
                    found.add(root.relativize(file) + " contains '" + outside + "'");
                }
            }
        }
        assertEquals(List.of(), found);
    }

    private static void collect(Path dir, List<Path> files) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile)
                    .filter(p -> !dir.relativize(p).toString().replace('\\', '/').matches("(.*/)?target/.*"))
                    .forEach(files::add);
        }
    }

    /** The folder holding the parent pom and the model module: the module's parent when run by Maven. */
    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isRegularFile(p.resolve("model/pom.xml"))) {
                return p;
            }
        }
        throw new AssertionError("no repository root above " + Path.of("").toAbsolutePath());
    }
}
