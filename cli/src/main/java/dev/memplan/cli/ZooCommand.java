package dev.memplan.cli;

import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.datasets.zoo.ZooFiles;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code memplan zoo list|export}: the networks of the COSMA evaluation, built in memplan. */
@Command(name = "zoo", mixinStandardHelpOptions = true,
        description = {"The network zoo: the 14 networks of the COSMA paper's evaluation, built from their reference",
            "definitions with 8-bit data. Every command that takes a GRAPH also takes a zoo name."},
        subcommands = {ZooCommand.List.class, ZooCommand.Export.class})
final class ZooCommand extends CommandBase.Group {

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"Lists the zoo networks, then their training steps (NAME:train), with their sizes and M_R for",
                "both tensor settings (bytes). NAME:train+update adds the weight update."})
    static final class List extends CommandBase {
        @Override
        public Integer call() {
            PrintWriter out = out();
            TextTable t = new TextTable("name", "kind", "operators", "tensors", "activation bytes", "parameter bytes",
                    "M_R activations", "M_R all", "network");
            java.util.List<String> names = new java.util.ArrayList<>(Zoo.names());
            names.addAll(ZooFiles.trainingNames());
            for (String name : names) {
                ZooFiles.Stats s = ZooFiles.stats(name);
                t.row(name, s.nas() ? "NAS" : "human", Integer.toString(s.operators()), Integer.toString(s.tensors()),
                        Long.toString(s.activationBytes()), Long.toString(s.parameterBytes()),
                        Long.toString(s.minimumActivations()), Long.toString(s.minimumAll()), s.title());
            }
            t.print(out);
            return ExitCode.OK.code();
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = {"Writes NAME.json (memplan-graph/1) for one network, or for every network with 'all'",
                "(then also README.md with the table of sizes), into DIR; each file is written atomically."})
    static final class Export extends CommandBase {
        @Parameters(index = "0", paramLabel = "NAME|all",
                description = "a zoo network (NAME:train or NAME:train+update: its training step, written as"
                        + " NAME.train.json or NAME.train+update.json), or all (the networks)")
        String name;

        @Parameters(index = "1", paramLabel = "DIR", description = "folder to write into (created if missing)")
        Path dir;

        @Override
        public Integer call() {
            java.util.List<String> names = name.equals("all") ? Zoo.names()
                    : ZooFiles.exists(name) ? java.util.List.of(name) : Inputs.zooNetworks(java.util.List.of(name));
            Outputs.checkFolder(dir, "DIR");
            for (Path p : ZooFiles.export(names, dir)) {
                out().println("wrote " + p);
            }
            return ExitCode.OK.code();
        }
    }
}
