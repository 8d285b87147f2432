package dev.memplan.sweeps.figures;

import dev.memplan.decomposition.PipelineReport;
import java.util.Locale;

/** How figures and tables print numbers: fixed, locale-independent formats. */
final class Numbers {

    private Numbers() {
    }

    /** Seconds as the paper's Table II prints them: one decimal, two below one second, {@code <0.01} below that. */
    static String seconds(double s) {
        if (s < 0.005) {
            return "<0.01";
        }
        return String.format(Locale.ROOT, s < 1 ? "%.2f" : "%.1f", s);
    }

    /** A time limit: whole seconds without decimals ({@code 120}), else as given ({@code 0.5}). */
    static String limit(double s) {
        return s == Math.rint(s) ? String.format(Locale.ROOT, "%.0f", s) : Double.toString(s);
    }

    /** A gap in (0, 1] as a percentage with one decimal (two significant digits below 0.05%). */
    static String percent(double gap) {
        return PipelineReport.percent(gap, 1);
    }

    /** A count with decimal prefixes (k, M, G, T, P) and up to three significant digits: {@code 1.5 G}. */
    static String count(double n) {
        String[] prefixes = {"", " k", " M", " G", " T", " P"};
        int u = 0;
        while (Math.abs(n) >= 1000 && u < prefixes.length - 1) {
            n /= 1000;
            u++;
        }
        return new java.math.BigDecimal(n).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString()
                + prefixes[u];
    }

    /** Bytes in decimal units (B, kB, MB, GB, TB) with up to three significant digits, as axis ticks read best. */
    static String bytes(double b) {
        String[] units = {"B", "kB", "MB", "GB", "TB"};
        int u = 0;
        while (Math.abs(b) >= 1000 && u < units.length - 1) {
            b /= 1000;
            u++;
        }
        String number = new java.math.BigDecimal(b).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
        return number + " " + units[u];
    }

    /**
     * Axis ticks in bytes with decimal units ({@code 250 kB}), or as counts with decimal prefixes ({@code 1.5 G}), as
     * recompute costs (multiply-accumulates) read; the figures' one tick format.
     */
    static final class TickFormat extends java.text.NumberFormat {
        private static final long serialVersionUID = 1L;
        private final boolean bytes;

        TickFormat(boolean bytes) {
            this.bytes = bytes;
        }

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, java.text.FieldPosition pos) {
            return toAppendTo.append(bytes ? bytes(number) : count(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, java.text.FieldPosition pos) {
            return format((double) number, toAppendTo, pos);
        }

        @Override
        public Number parse(String source, java.text.ParsePosition parsePosition) {
            throw new UnsupportedOperationException("ticks are only printed");
        }
    }
}
