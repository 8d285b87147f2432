package dev.memplan.cli;

import dev.memplan.sweeps.bench.ImportBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memplan bench import}: the wall time of importing ONNX models ({@link ImportBench}). */
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
        return models.stream().map(ImportBench::file).toList();
    }

    @Override
    Integer run(Path csv, PrintWriter out) {
        ImportBench.Spec spec = new ImportBench.Spec(models, repeats);
        TextTable t = new TextTable(ImportBench.HEADER);
        ImportBench.run(spec, t.sink(csv, null, null));
        t.print(out);
        out.println("wrote " + csv);
        return 0;
    }
}
