package dev.memplan.cli;

import picocli.CommandLine.Option;

/** The budget and tensor setting of one planning case, declared once: a mixin of solve and compare. */
final class CaseOptions {
    @Option(names = "--budget", required = true, paramLabel = "M_R|M_H|M_P|BYTES",
            description = "scratchpad budget: M_R, M_H, M_P, a fraction between M_R and M_P written with a point"
                    + " (0.25), or bytes")
    String budget;

    @picocli.CommandLine.Mixin
    SettingOption setting;
}
