package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The pipeline's shares fit together, and a share is a share of work under a work limit, of time otherwise. */
class SharesTest {

    @Test
    void theSharesLeaveRoomForTheStepsAfterThem() {
        // Fractions of what is left: strictly between 0 and 1, or the step after them gets nothing.
        for (double f : new double[] {Shares.WHOLE_FIRST, Shares.PARTS, Shares.LARGE_PARTS, Shares.FINAL_BOUND,
            Shares.EARLY_BOUND, Shares.STITCHED_ORDER, Shares.RECOMPUTE_JOINT, Shares.RECOMPUTE_BOUND,
            Shares.RECOMPUTE_PRICED, Shares.PRICED_LIVE_BYTES, Shares.CHOOSE_REPLAN_EACH,
            Shares.CHOOSE_AGAIN, Shares.ORDER_COVER, Shares.ORDER_COVER_PROGRAM,
            Shares.ORDER_COVER_FIRST}) {
            assertTrue(f > 0 && f < 1, "share " + f);
        }
        // The recompute search leaves the joint program, and its moves leave the re-planning, a part.
        assertTrue(Shares.RECOMPUTE_CHOOSE > 0 && Shares.RECOMPUTE_CHOOSE < 1 && Shares.CHOOSE_SEARCH > 0
                && Shares.CHOOSE_SEARCH < 1, "the recompute search's shares");
        // Divide and conquer: the parts, then the windows, then the final bound, within one limit.
        assertTrue(Shares.PARTS + Shares.FINAL_BOUND < 1, "parts and the final bound leave the windows room");
        assertTrue(Shares.EARLY_BOUND < Shares.FINAL_BOUND, "the early bound is the cheap one");
        assertTrue(Shares.STEM_BOUND > 0 && Shares.STEM_BOUND < 1, "the stem leaves the live-bytes bound its part");
        assertTrue(Shares.STEM_PLANS > 0 && Shares.STEM_PLANS < 1, "the stem's plans leave the windows their part");
        for (int d : new int[] {Shares.FIXED_START_DIVISOR, Shares.WINDOW_STEP_DIVISOR, Shares.WINDOW_PROPOSAL_DIVISOR,
            Shares.START_ORDER_DIVISOR, Shares.LIFT_DIVISOR, Shares.SCIP_PASS_DIVISOR,
            Shares.RECOMPUTE_RELAXATION_DIVISOR, Shares.RECOMPUTE_PACKING_DIVISOR, Shares.LATER_HEURISTIC_DIVISOR,
            Shares.WRITE_MARGIN_DIVISOR}) {
            assertTrue(d >= 2, "a divisor of 1 would give one step everything: " + d);
        }
        // Two fixed-schedule starts (FS(default), FS(MPMF)) leave divide and conquer most of its limit.
        assertTrue(2.0 / Shares.FIXED_START_DIVISOR <= 0.25);
        assertTrue(Shares.MIN_SOLVE < Shares.STEP_CAP.toSeconds());
    }

    @Test
    void aShareIsOfWorkUnderAWorkLimitAndOfTimeOtherwise() {
        Limits wall = new Limits(Duration.ofSeconds(10), 1, 0, 0);
        long whole = wall.child(Shares.WHOLE_FIRST).budget().allotment();
        assertTrue(whole <= 8_000_000_000L && whole > 7_000_000_000L, "80% of the wall time: " + whole);
        Budget work = Budget.ofWork(10, null);
        work.charge(6);
        Limits counted = Limits.DEFAULT.withBudget(work);
        // 4 units left: 80% of them, whatever the wall clock says.
        assertEquals(3_200_000_000L, counted.child(Shares.WHOLE_FIRST).budget().allotment());
        assertEquals(500_000_000L, counted.part(Shares.FIXED_START_DIVISOR).budget().allotment());
    }
}
