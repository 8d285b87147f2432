/**
 * The Spark engine for sweeps (issue 15): {@link dev.memplan.sweeps.spark.SparkEngine}, registered as a
 * {@link dev.memplan.sweeps.SweepEngine} service, so {@code memplan sweep --engine spark} finds it when this module's
 * jar is on the classpath. Nothing else in memplan carries Spark.
 */
package dev.memplan.sweeps.spark;
