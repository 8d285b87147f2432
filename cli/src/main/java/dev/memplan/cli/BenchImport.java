package dev.memplan.cli;

import dev.memplan.datasets.onnx.OnnxImport;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code memplan bench import}: the wall time of importing ONNX models (read, fold, infer shapes, build the
 * graph), the first import in this JVM (what {@code memplan import} costs a user, class loading and JIT
 * included) and the median of the repeats after it.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Times ONNX import: the first import in a fresh JVM and the median of repeats; prints a table",
            "and writes a CSV."})
final class BenchImport extends CommandBase.Bench {
    @Parameters(paramLabel = "MODEL.onnx[@NAME=D0,D1,...]", arity = "1..*",
            description = "models, each with the shape of its dynamic input after '@' when it has one")
    List<String> models;

    @Option(names = "--repeats", defaultValue = "5", description = "timed imports after the first (default: ${DEFAULT-VALUE})")
    int repeats;

    @Override
    List<String> inputs() {
        // A model argument is the file, with the shape of its dynamic input after '@'.
        return models.stream().map(m -> m.indexOf('@') < 0 ? m : m.substring(0, m.indexOf('@'))).toList();
    }

    @Override
    Integer run(Path csv, PrintWriter out) {
        Table t = new Table("model", "input", "file MB", "operators", "tensors", "M_R all", "first s", "median s");
        for (String spec : models) {
            int at = spec.indexOf('@');
            Path file = Path.of(at < 0 ? spec : spec.substring(0, at));
            OnnxImport.Options options = OnnxImport.Options.defaults();
            String input = "";
            if (at >= 0) {
                try {
                    Map.Entry<String, long[]> e = OnnxImport.parseInput(spec.substring(at + 1));
                    options = options.withInput(e.getKey(), e.getValue());
                    input = spec.substring(at + 1);
                } catch (IllegalArgumentException e) {
                    throw new UserException(e.getMessage());
                }
            }
            if (!Files.isRegularFile(file)) {
                throw new UserException("no such file: " + file);
            }
            double[] seconds = new double[repeats + 1];
            Graph g = null;
            for (int r = 0; r <= repeats; r++) {
                long start = System.nanoTime();
                g = OnnxImport.read(file, options);
                seconds[r] = (System.nanoTime() - start) / 1e9;
            }
            double[] warm = Arrays.copyOfRange(seconds, 1, seconds.length);
            Arrays.sort(warm);
            double median = warm.length == 0 ? seconds[0] : warm[warm.length / 2];
            t.row(file.getFileName().toString(), input, String.format("%.1f", size(file) / 1e6),
                    Integer.toString(g.operatorCount()), Integer.toString(g.tensorCount()),
                    Long.toString(Budgets.minimumRequired(g)), String.format("%.3f", seconds[0]),
                    String.format("%.3f", median));
            t.writeCsv(csv);
        }
        t.print(out);
        out.println("wrote " + csv);
        return 0;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
