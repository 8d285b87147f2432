package dev.memplan.sweeps;

import java.io.Serializable;

/**
 * What running a case gives back to the driver: its row (without the plan path) and the checked plan's text, which
 * the driver writes next to the database, so workers on other machines need no shared folder.
 *
 * @param planText memplan-plan/1 JSON for graphs, MiniMalloc CSV with offsets for buffers; null without a plan
 * @param planExtension {@code json} or {@code csv}
 */
public record CaseOutcome(ResultRow row, String planText, String planExtension) implements Serializable {
    private static final long serialVersionUID = 1L;
}
