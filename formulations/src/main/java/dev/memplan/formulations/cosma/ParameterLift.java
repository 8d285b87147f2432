package dev.memplan.formulations.cosma;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A plan with parameters built from a plan of the activations alone: the top of the scratchpad is reserved for
 * the parameters of the running operator, each loaded just in time at the step that reads it, and the
 * activations keep their plan below. With P the most parameter bytes one operator reads, every activations plan
 * at B - P lifts to a valid plan at B with the same non-compulsory traffic (plus reloads of parameters read by
 * several operators). On the Transformer, M_R with parameters is M_R of the activations plus the widest
 * feed-forward weight, so the activations optimum at M_R lifts to a plan that meets the forced bound of the
 * parameter setting.
 */
public final class ParameterLift {
    private ParameterLift() {
    }

    /** The bytes reserved for parameters: the most (aligned) parameter bytes one operator reads; 0 without any. */
    public static long reserved(Graph graph) {
        long most = 0;
        for (int o = 0; o < graph.operatorCount(); o++) {
            long bytes = 0;
            for (int a : distinctParameters(graph, o)) {
                bytes += Budgets.roundUp(graph.size(a), graph.alignment());
            }
            most = Math.max(most, bytes);
        }
        return most;
    }

    /**
     * The budget left to the activations when the parameters are reserved at the top of {@code budget}: aligned
     * down, so the parameter region starts on an alignment boundary.
     */
    public static long activationBudget(Graph graph, long budget) {
        long left = budget - reserved(graph);
        long alignment = graph.alignment();
        return left <= 0 ? 0 : left / alignment * alignment;
    }

    /**
     * The plan with parameters (in {@link TensorSetting#ALL}) at {@code budget} from a plan of the activations
     * whose addresses stay below {@link #activationBudget}.
     */
    public static Plan lift(Graph graph, Plan activations, long budget) {
        long base = activationBudget(graph, budget);
        Map<String, List<Segment>> segments = new LinkedHashMap<>(activations.segments());
        List<String> order = activations.schedule().operators();
        for (int t = 0; t < order.size(); t++) {
            int o = graph.operatorIndex(order.get(t));
            long cursor = base;
            for (int a : distinctParameters(graph, o)) {
                List<Segment> list = segments.computeIfAbsent(graph.tensor(a).name(), k -> new ArrayList<>());
                list.add(new Segment(t, t, cursor, Origin.LOADED));
                cursor += Budgets.roundUp(graph.size(a), graph.alignment());
            }
        }
        return new Plan(graph.name(), TensorSetting.ALL, budget, activations.schedule(), segments, null, null);
    }

    private static Set<Integer> distinctParameters(Graph graph, int operator) {
        Set<Integer> out = new LinkedHashSet<>();
        for (int a : graph.inputs(operator)) {
            if (graph.tensor(a).kind() == TensorKind.PARAMETER) {
                out.add(a);
            }
        }
        return out;
    }
}
