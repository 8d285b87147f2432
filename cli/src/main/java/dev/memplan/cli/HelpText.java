package dev.memplan.cli;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Help that prints whole sentences. A command's description is written in the source as an array of line-sized
 * fragments; picocli would print each as a line of its own and list a command by its first fragment, cut
 * mid-sentence. Here each description becomes one paragraph that picocli wraps, and a command list shows each
 * command's first whole sentence. Every command lists the exit codes ({@link ExitCode}).
 */
final class HelpText {
    /** The width help is wrapped to: picocli's default, so that help reads the same in every terminal. */
    private static final int WIDTH = 80;

    private HelpText() {
    }

    /** Applies to {@code root} and every command below it. */
    static void apply(CommandLine root) {
        Deque<CommandLine> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            CommandLine c = todo.pop();
            UsageMessageSpec usage = c.getCommandSpec().usageMessage();
            usage.width(WIDTH);
            usage.exitCodeListHeading("%nExit codes:%n");
            usage.exitCodeList(ExitCode.helpList());
            if (usage.description().length > 1) {
                usage.description(paragraph(usage.description()));
            }
            c.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, HelpText::commandList);
            todo.addAll(c.getSubcommands().values());
        }
    }

    /** The fragments joined into one paragraph. */
    static String paragraph(String[] fragments) {
        StringBuilder b = new StringBuilder();
        for (String f : fragments) {
            String t = f.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(t);
        }
        return b.toString();
    }

    /**
     * The first sentence of a paragraph: up to the first full stop that ends a sentence (followed by the end, or
     * by a space and a capital letter, so that "eq. 1-12" does not end one).
     */
    static String firstSentence(String paragraph) {
        for (int i = 0; i < paragraph.length(); i++) {
            if (paragraph.charAt(i) != '.') {
                continue;
            }
            if (i + 1 == paragraph.length()) {
                return paragraph;
            }
            if (i + 2 < paragraph.length() && paragraph.charAt(i + 1) == ' '
                    && Character.isUpperCase(paragraph.charAt(i + 2))) {
                return paragraph.substring(0, i + 1);
            }
        }
        return paragraph;
    }

    private static String commandList(Help help) {
        Map<String, Help> commands = help.subcommands();
        if (commands.isEmpty()) {
            return "";
        }
        int nameWidth = 0;
        for (String name : commands.keySet()) {
            nameWidth = Math.max(nameWidth, name.length());
        }
        nameWidth += 4;
        TextTable table = TextTable.forColumns(help.colorScheme(),
                new Column(nameWidth, 2, Column.Overflow.SPAN),
                new Column(WIDTH - nameWidth, 2, Column.Overflow.WRAP));
        for (Map.Entry<String, Help> e : commands.entrySet()) {
            UsageMessageSpec usage = e.getValue().commandSpec().usageMessage();
            String[] text = usage.header().length > 0 ? usage.header() : usage.description();
            table.addRowValues(e.getKey(), firstSentence(paragraph(text)));
        }
        return table.toString();
    }
}
