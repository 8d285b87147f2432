package dev.memplan.decomposition;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;

/**
 * What a start that inserts reruns into a plan's runs and covers the orders exactly ({@link FanOutReruns},
 * {@link CoverReruns}) gives back: its lowest plan, if any went below the start, and a line for the report.
 */
interface CoveredReruns {

    /** The lowest plan made, checked, or null when nothing went below the start. */
    Plan plan();

    /** The plan's check. */
    CheckReport check();

    /** The plan's objective. */
    Objective objective();

    /** Orders covered exactly. */
    int covered();

    /** One line for the report, from the start's objective. */
    String note(Objective from);
}
