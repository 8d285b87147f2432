package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.Model;

/** Variables and constraints of a built program. */
public record ModelSize(int variables, int constraints) {

    public static ModelSize of(Model model) {
        return new ModelSize(model.variableCount(), model.constraintCount());
    }

    @Override
    public String toString() {
        return variables + " vars / " + constraints + " cons";
    }
}
