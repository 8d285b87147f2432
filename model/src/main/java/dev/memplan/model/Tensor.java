package dev.memplan.model;

import java.util.List;
import java.util.Objects;

/**
 * A tensor of a {@link Graph}: a name, a size in bytes (a positive 64-bit integer) and a kind.
 * Shape and dtype are informative only; they may be empty.
 */
public record Tensor(String name, long size, TensorKind kind, List<Long> shape, String dtype) {

    public Tensor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        shape = shape == null ? List.of() : List.copyOf(shape);
    }

    public Tensor(String name, long size, TensorKind kind) {
        this(name, size, kind, List.of(), null);
    }

    public static Tensor activation(String name, long size) {
        return new Tensor(name, size, TensorKind.ACTIVATION);
    }

    public static Tensor parameter(String name, long size) {
        return new Tensor(name, size, TensorKind.PARAMETER);
    }
}
