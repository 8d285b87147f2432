package dev.memplan.model;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A budget as a user writes it, parsed without a graph: {@code M_R}, {@code M_H}, {@code M_P} (also {@code MR},
 * {@code MH}, {@code MP}, any case), a fraction {@code f} in [0, 1] written with a decimal point (M_R + floor(f *
 * (M_P - M_R)), so 0.0 is M_R and 1.0 is M_P), or a number of bytes (underscores allowed). {@link #bytes} resolves
 * it once the graph's M_R and, when {@link #needsMinimumPeak()}, its M_P are known. Every command and every sweep
 * reads budgets here.
 *
 * @param text as written
 * @param fraction for {@link Kind#FRACTION}, f; else 0
 * @param bytes for {@link Kind#BYTES}, the bytes; else 0
 */
public record BudgetSpec(String text, Kind kind, double fraction, long bytes) {
    private static final Pattern FRACTION = Pattern.compile("(0|1)?\\.\\d+|[01]\\.");
    private static final Pattern NAMED = Pattern.compile("M_?[RHP]");

    /** The forms of a budget. */
    public enum Kind {
        M_R, M_H, M_P, FRACTION, BYTES
    }

    /** Whether the text has the form of a budget (a byte count of up to 18 digits; not checked against 2^53). */
    public static boolean isWellFormed(String text) {
        if (NAMED.matcher(text.toUpperCase(Locale.ROOT)).matches()) {
            return true;
        }
        if (FRACTION.matcher(text).matches()) {
            return Double.parseDouble(text) <= 1.0;
        }
        return text.replace("_", "").matches("\\d{1,18}");
    }

    /**
     * The budget that text names.
     *
     * @throws IllegalArgumentException naming the forms of a budget, a fraction above 1, or bytes beyond what
     *     memplan supports
     */
    public static BudgetSpec parse(String text) {
        String upper = text.toUpperCase(Locale.ROOT);
        if (NAMED.matcher(upper).matches()) {
            Kind kind = switch (upper.charAt(upper.length() - 1)) {
                case 'R' -> Kind.M_R;
                case 'H' -> Kind.M_H;
                default -> Kind.M_P;
            };
            return new BudgetSpec(text, kind, 0, 0);
        }
        if (FRACTION.matcher(text).matches()) {
            double f = Double.parseDouble(text);
            if (f > 1.0) {
                throw new IllegalArgumentException("budget fraction " + text + " must be between 0 and 1 (M_R to M_P)");
            }
            return new BudgetSpec(text, Kind.FRACTION, f, 0);
        }
        String digits = text.replace("_", "");
        long bytes;
        try {
            bytes = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            if (digits.matches("\\d+")) {
                throw new IllegalArgumentException("the budget is " + text + ", above 2^53 = " + ByteRange.MAX
                        + ", the largest byte count memplan supports");
            }
            throw new IllegalArgumentException("a budget is M_R, M_H, M_P, a fraction between M_R and M_P such as"
                    + " 0.25, or a number of bytes; got '" + text + "'");
        }
        String problem = ByteRange.problem(bytes, "the budget");
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return new BudgetSpec(text, Kind.BYTES, 0, bytes);
    }

    /** Whether resolving it needs M_P (and so the minimum-peak order): M_H, M_P and fractions. */
    public boolean needsMinimumPeak() {
        return kind == Kind.M_H || kind == Kind.M_P || kind == Kind.FRACTION;
    }

    /** Its name in reports: M_R, M_H, M_P, the fraction as written, or the bytes. */
    public String name() {
        return switch (kind) {
            case FRACTION -> text;
            case BYTES -> Long.toString(bytes);
            default -> kind.name();
        };
    }

    /**
     * The bytes it names on a graph with M_R {@code mr} and M_P {@code mp} ({@code mp} is read only when
     * {@link #needsMinimumPeak()}); not checked against M_R.
     */
    public long bytes(long mr, long mp) {
        return switch (kind) {
            case M_R -> mr;
            case M_H -> Budgets.halfway(mr, mp);
            case M_P -> mp;
            case FRACTION -> mr + (long) Math.floor(fraction * (mp - mr));
            case BYTES -> bytes;
        };
    }
}
