/**
 * memplan's benchmarks as plain classes: each takes its spec (a record, checked when it is made: a count out of
 * its bounds is a {@link dev.memplan.sweeps.SweepException}, a user mistake) and hands its table's rows, one at a
 * time, to the caller, which prints them and writes the CSV ({@code memplan bench ...}).
 */
package dev.memplan.sweeps.bench;
