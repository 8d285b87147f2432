package dev.memplan.model.io;

import dev.memplan.model.Graph;
import dev.memplan.model.Schedule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Files that list operators by name, one a line (blank lines and lines starting with {@code #} skipped): a
 * schedule ({@code solve --schedule}, {@code trace --schedule}) or the break nodes of divide and conquer
 * ({@code --decompose FILE}). A schedule may also be given as a plan (memplan-plan/1), whose order it takes.
 */
public final class OperatorLists {
    private OperatorLists() {
    }

    /** The names, stripped, in file order. */
    public static List<String> names(String text) {
        List<String> names = new ArrayList<>();
        for (String line : text.split("\\R")) {
            String s = line.strip();
            if (!s.isEmpty() && !s.startsWith("#")) {
                names.add(s);
            }
        }
        return names;
    }

    /**
     * The schedule an argument names, checked against {@code g}: {@code default}, the graph's default order, or a
     * file ({@link #schedule(String, String)}).
     *
     * @throws IllegalArgumentException for a file that cannot be read or is not a schedule of {@code g}
     */
    public static Schedule schedule(Graph g, String argument) {
        if (argument.equals("default")) {
            return Schedule.defaultOrder(g);
        }
        Path file = Path.of(argument);
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read schedule file " + file + ": " + AtomicFiles.reason(e));
        }
        Schedule schedule = schedule(text, file.toString());
        try {
            schedule.validate(g);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": not a schedule of graph '" + g.name() + "': " + e.getMessage());
        }
        return schedule;
    }

    /** The schedule of a plan's JSON, or of a list of names; not checked against a graph. */
    public static Schedule schedule(String text, String file) {
        return text.stripLeading().startsWith("{") ? PlanJson.read(text, file).schedule() : new Schedule(names(text));
    }
}
