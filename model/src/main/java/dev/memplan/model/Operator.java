package dev.memplan.model;

import java.util.List;
import java.util.Objects;

/**
 * An operator of a {@link Graph}: it reads its input tensors and writes its output tensors (siblings,
 * created together). The type (e.g. {@code Conv}) is informative only and may be null.
 */
public record Operator(String name, String type, List<String> inputs, List<String> outputs) {

    public Operator {
        Objects.requireNonNull(name, "name");
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    public Operator(String name, List<String> inputs, List<String> outputs) {
        this(name, null, inputs, outputs);
    }
}
