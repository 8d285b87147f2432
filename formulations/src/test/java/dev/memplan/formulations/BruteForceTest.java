package dev.memplan.formulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BruteForceTest {

    private static final TensorSetting ALL = TensorSetting.ALL;

    /**
     * A random tiny graph for oracle tests: 1-2 host inputs (read by the first operator), {@code operators}
     * operators in a topological default order, each reading 1-2 earlier tensors (biased towards recent ones)
     * plus, when {@code withParameters}, sometimes one parameter of its own; 20% of the operators have two
     * outputs. Sizes 1..6. The last operator's first output is always a graph output, other never-read
     * tensors are graph outputs half of the time, and a read tensor is a graph output now and then (so that
     * the "a graph output's spill is compulsory" rule gets exercised).
     */
    static Graph randomTinyGraph(Random r, int operators, boolean withParameters) {
        Graph.Builder b = Graph.builder("random");
        List<String> available = new ArrayList<>();
        List<String> produced = new ArrayList<>();
        int hosts = 1 + r.nextInt(2);
        for (int h = 0; h < hosts; h++) {
            String name = "in" + h;
            b.activation(name, 1 + r.nextInt(6));
            available.add(name);
        }
        List<String> read = new ArrayList<>();
        for (int o = 0; o < operators; o++) {
            List<String> inputs = new ArrayList<>();
            if (o == 0) {
                inputs.addAll(available);
            } else {
                int fanIn = 1 + r.nextInt(2);
                for (int k = 0; k < fanIn; k++) {
                    // bias towards recent tensors: pick among the last few half of the time
                    int from = r.nextBoolean() ? Math.max(0, available.size() - 3) : 0;
                    String t = available.get(from + r.nextInt(available.size() - from));
                    if (!inputs.contains(t)) {
                        inputs.add(t);
                    }
                }
            }
            read.addAll(inputs);
            if (withParameters && r.nextInt(3) > 0) {
                String w = "w" + o;
                b.parameter(w, 1 + r.nextInt(6));
                inputs.add(w);
            }
            List<String> outs = new ArrayList<>();
            int outCount = r.nextInt(5) == 0 ? 2 : 1;
            for (int k = 0; k < outCount; k++) {
                String t = "t" + o + (outCount > 1 ? "_" + k : "");
                b.activation(t, 1 + r.nextInt(6));
                outs.add(t);
                produced.add(t);
            }
            b.operator("op" + o, inputs, outs);
            available.addAll(outs);
        }
        String last = "t" + (operators - 1) + (produced.get(produced.size() - 1).contains("_") ? "_0" : "");
        for (String t : produced) {
            boolean isRead = read.contains(t);
            if (t.equals(last) || (!isRead && r.nextBoolean()) || (isRead && r.nextInt(6) == 0)) {
                b.output(t);
            }
        }
        return b.build();
    }
}
