package dev.memplan.model;

import java.util.List;
import java.util.Objects;

/**
 * An operator of a {@link Graph}: it reads its input tensors and writes its output tensors (siblings,
 * created together). The type (e.g. {@code Conv}) may be null; it names the operator's kind for
 * {@link OperatorCosts}. The cost is the compute cost c(o) of memory-model.md ("Recomputation") when the graph
 * gives one, or null, and then {@link Graph#cost(int)} derives it.
 */
public record Operator(String name, String type, List<String> inputs, List<String> outputs, Long cost) {

    public Operator {
        Objects.requireNonNull(name, "name");
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        if (cost != null && cost < 0) {
            throw new IllegalArgumentException("operator '" + name + "' has cost " + cost + "; costs must be >= 0");
        }
    }

    public Operator(String name, String type, List<String> inputs, List<String> outputs) {
        this(name, type, inputs, outputs, null);
    }

    public Operator(String name, List<String> inputs, List<String> outputs) {
        this(name, null, inputs, outputs, null);
    }

    /** This operator with the given cost (null: derived). */
    public Operator withCost(Long value) {
        return new Operator(name, type, inputs, outputs, value);
    }
}
