package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FormatExceptionTest {

    @Test
    void messageNamesFilePlaceAndProblem() {
        FormatException e = new FormatException("g.json", "$.operators[2].inputs[0]", "unknown tensor 'x'");
        assertEquals("g.json: $.operators[2].inputs[0]: unknown tensor 'x'", e.getMessage());
        assertEquals("g.json", e.file());
        assertEquals("$.operators[2].inputs[0]", e.where());
        assertEquals("unknown tensor 'x'", e.problem());
    }
}
