package dev.memplan.model;

import java.util.Arrays;
import java.util.function.Function;

/** An enum's value by the name a command line or a spec writes for it, with the one error every switch gives. */
public final class EnumNames {
    private EnumNames() {
    }

    /**
     * The value of {@code values} whose name (as {@code name} writes it) is {@code text}, trimmed, any case.
     *
     * @throws IllegalArgumentException naming {@code what} and listing every value's name (from {@code values})
     */
    public static <E extends Enum<E>> E parse(E[] values, Function<E, String> name, String text, String what) {
        for (E e : values) {
            if (name.apply(e).equalsIgnoreCase(text.trim())) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " '" + text + "': use " + String.join(" or ",
                Arrays.stream(values).map(e -> "'" + name.apply(e) + "'").toList()));
    }
}
