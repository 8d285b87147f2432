package dev.memplan.sweeps.bench;

import dev.memplan.datasets.onnx.OnnxImport;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.sweeps.SweepException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The wall time of importing ONNX models (read, fold, infer shapes, build the graph): the first import in this JVM
 * (what {@code memplan import} costs a user, class loading and JIT included) and the median of the repeats after
 * it.
 */
public final class ImportBench {
    public static final String[] HEADER = {"model", "input", "file MB", "operators", "tensors", "M_R all", "first s",
        "median s"};

    /**
     * The models, each {@code FILE} or {@code FILE@NAME=D0,D1,...} (the shape of its dynamic input), checked now,
     * and the timed imports after the first.
     */
    public record Spec(List<String> models, int repeats) {
        public Spec {
            Bounds.check(repeats, 0, Bounds.MAX_REPEATS, "--repeats", "");
            models = List.copyOf(models);
            models.forEach(ImportBench::model);
        }
    }

    /** A model argument: its file, the input shape as given ("" for none) and the import's options. */
    private record Model(Path file, String input, OnnxImport.Options options) {
    }

    private ImportBench() {
    }

    /** The file of a model argument: the text before '@'. */
    public static String file(String model) {
        return model.indexOf('@') < 0 ? model : model.substring(0, model.indexOf('@'));
    }

    /** Hands a row per model to {@code rows}. */
    public static void run(Spec spec, Consumer<String[]> rows) {
        for (String argument : spec.models()) {
            Model m = model(argument);
            double[] seconds = new double[spec.repeats() + 1];
            Graph g = null;
            for (int r = 0; r <= spec.repeats(); r++) {
                long start = System.nanoTime();
                g = OnnxImport.read(m.file(), m.options());
                seconds[r] = (System.nanoTime() - start) / 1e9;
            }
            double[] warm = Arrays.copyOfRange(seconds, 1, seconds.length);
            Arrays.sort(warm);
            double median = warm.length == 0 ? seconds[0] : warm[warm.length / 2];
            rows.accept(new String[] {m.file().getFileName().toString(), m.input(),
                String.format("%.1f", size(m.file()) / 1e6), Integer.toString(g.operatorCount()),
                Integer.toString(g.tensorCount()), Long.toString(Budgets.minimumRequired(g)),
                String.format("%.3f", seconds[0]), String.format("%.3f", median)});
        }
    }

    private static Model model(String argument) {
        int at = argument.indexOf('@');
        Path file = Path.of(file(argument));
        OnnxImport.Options options = OnnxImport.Options.defaults();
        String input = "";
        if (at >= 0) {
            try {
                Map.Entry<String, long[]> e = OnnxImport.parseInput(argument.substring(at + 1));
                options = options.withInput(e.getKey(), e.getValue());
                input = argument.substring(at + 1);
            } catch (IllegalArgumentException e) {
                throw new SweepException(e.getMessage(), e);
            }
        }
        if (!Files.isRegularFile(file)) {
            throw new SweepException("no such file: " + file);
        }
        return new Model(file, input, options);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
