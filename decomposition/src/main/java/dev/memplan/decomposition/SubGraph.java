package dev.memplan.decomposition;

import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A set of operators of a graph as a graph of its own, the way COSMA's divide and conquer states a part
 * (section IV-C): a tensor written outside the set becomes a host tensor of the part (loaded from host memory,
 * as if the cut had spilled it); a tensor written inside and read outside, or a graph output, becomes an output
 * of the part (written to host memory). Names are kept, so the part's plan reads as a piece of a global plan.
 *
 * @param operators the graph's operator indices, in the part's default order (a topological order of the part)
 */
public record SubGraph(Graph graph, int[] operators) {

    /**
     * @param order operator indices of the whole graph in an order that is topological within the set
     */
    public static SubGraph of(Graph g, int[] order, String name) {
        BitSet inside = new BitSet(g.operatorCount());
        for (int o : order) {
            inside.set(o);
        }
        Set<Integer> tensors = new LinkedHashSet<>();
        List<Operator> ops = new ArrayList<>();
        for (int o : order) {
            for (int t : g.inputs(o)) {
                tensors.add(t);
            }
            for (int t : g.outputs(o)) {
                tensors.add(t);
            }
            ops.add(g.operator(o));
        }
        List<Tensor> list = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        for (int t : tensors) {
            Tensor tensor = seenFrom(g, t, inside);
            list.add(tensor);
            if (producedInside(g, t, inside) && (g.isGraphOutput(t) || readOutside(g, t, inside))) {
                outputs.add(tensor.name());
            }
        }
        return new SubGraph(new Graph(name, g.alignment(), list, ops, outputs), order.clone());
    }

    /** Whether an operator of the set writes the tensor. */
    static boolean producedInside(Graph g, int t, BitSet inside) {
        int p = g.producer(t);
        return p >= 0 && inside.get(p);
    }

    /**
     * The tensor as a graph of the set's operators sees it: one written outside the set (by an earlier part) is
     * loaded from host memory there, like a graph input; parameters stay parameters.
     */
    static Tensor seenFrom(Graph g, int t, BitSet inside) {
        Tensor tensor = g.tensor(t);
        return producedInside(g, t, inside) || tensor.kind() == TensorKind.PARAMETER ? tensor
                : Tensor.activation(tensor.name(), tensor.size());
    }

    private static boolean readOutside(Graph g, int t, BitSet inside) {
        for (int c : g.consumers(t)) {
            if (!inside.get(c)) {
                return true;
            }
        }
        return false;
    }
}
