package dev.memplan.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * memplan's exit codes, one meaning each for every command (issue 37.3). Every command returns one of these, the
 * help of every command lists them from here ({@link HelpText}), and README.md and docs/commands.md repeat this
 * list word for word ({@code ExitCodeTest} holds them to it).
 */
enum ExitCode {
    /** The command did what was asked: a plan, placement, mapping, table or file; or a check that passed. */
    OK(0, "success (a plan, placement or mapping found and checked, a check passed, a file written)"),
    /** A proven "no": not a failure to find, a proof or a check that the thing asked about fails. */
    NO(1, "the answer is \"no\": a plan, layout or mapping that breaks a rule, or a budget or capacity proven too"
            + " small"),
    /** Bad arguments, a file that breaks its format or the memory model: one line, no stack trace. */
    USER_ERROR(2, "a user mistake or a missing prerequisite (bad arguments, a malformed file, a graph that breaks"
            + " the memory model, a solver library that cannot load): one line naming the place and the rule, no"
            + " stack trace, nothing half-written"),
    /** A bug in memplan, with its stack trace. */
    INTERNAL_ERROR(3, "an internal error (a bug in memplan, with its stack trace)"),
    /** Nothing found within the limits: not a proof that nothing exists. */
    NOT_FOUND(4, "nothing found within the limits (no plan, packing or mapping), which proves nothing"),
    /** The first Ctrl-C: the command finished early with the best checked result so far. */
    INTERRUPTED(130, "interrupted by Ctrl-C (the best checked result so far is written first)");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** The process's exit status. */
    int code() {
        return code;
    }

    /** What the code means, for help and docs. */
    String meaning() {
        return meaning;
    }

    /** Every code and its meaning, in order: the exit-code list of every command's help. */
    static Map<String, String> helpList() {
        Map<String, String> list = new LinkedHashMap<>();
        for (ExitCode c : values()) {
            list.put(Integer.toString(c.code), c.meaning);
        }
        return list;
    }
}
