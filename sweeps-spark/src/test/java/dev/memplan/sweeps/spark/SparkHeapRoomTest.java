package dev.memplan.sweeps.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budget;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Limits;
import dev.memplan.sweeps.LocalEngine;
import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.ResultsDb;
import dev.memplan.sweeps.SweepEngine;
import dev.memplan.sweeps.SweepRun;
import dev.memplan.sweeps.SweepSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark tasks that share an executor's JVM (here local mode, {@code local[2]}: the driver's JVM) share its heap room
 * ({@link HeapRoom}): under a work limit a case's program waits while another task's program holds the room, and the
 * rows are those of the sequential local pool.
 */
class SparkHeapRoomTest {
    @TempDir
    Path dir;

    /**
     * Two COSMA cases under a work limit, each of which builds one program estimated at about 15 MB and holds it for
     * a second or more of solving: a room of {@link #ROOM} holds either, never both.
     */
    private static final String SPEC = """
            graphs: [densenet121]
            budgets: [M_R, 0.5]
            planners: [cosma]
            work_limits: [1]
            """;
    private static final long ROOM = 20_000_000;

    /** Spark's task threads (local mode runs them in this JVM) waiting now for a hold on the room. */
    private static long tasksWaitingForTheRoom() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("Executor task launch worker"))
                .filter(e -> e.getKey().getState() == Thread.State.TIMED_WAITING
                        || e.getKey().getState() == Thread.State.WAITING)
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().equals(HeapRoom.class.getName())
                        && f.getMethodName().equals("reserve")))
                .count();
    }

    private List<String> rows(String name) {
        try (ResultsDb db = ResultsDb.open(dir.resolve(name + ".duckdb"))) {
            return db.rows().stream().map(SparkHeapRoomTest::comparable).sorted().toList();
        }
    }

    /** A row's decisions and numbers, without the columns of the machine, the clock, the folder or the engine. */
    private static String comparable(ResultRow r) {
        return String.join(" ", r.caseKey(), r.status(), String.valueOf(r.trafficNonCompulsory()),
                String.valueOf(r.bound()), String.valueOf(r.vars()), String.valueOf(r.cons()),
                String.valueOf(r.workUsed()), String.valueOf(r.reproducible()), String.valueOf(r.error()));
    }

    private SweepRun.Summary sweep(String name, SweepEngine engine, SweepEngine.Options options,
                                   AtomicInteger arrived) {
        try (ResultsDb db = ResultsDb.open(dir.resolve(name + ".duckdb"))) {
            return SweepRun.run(SweepSpec.parse(SPEC, "room.yaml", dir), db, dir.resolve(name + "-plans"), engine,
                    options, new PrintWriter(new StringWriter()), row -> arrived.incrementAndGet());
        }
    }

    @Test
    void tasksOfOneJvmWaitForEachOthersProgramsAndGiveTheSequentialRows() throws Exception {
        try (HeapRoom.Hold cap = HeapRoom.roomAtMost(ROOM)) {
            AtomicInteger arrived = new AtomicInteger();
            assertEquals(new SweepRun.Summary(2, 0, 2, 0),
                    sweep("sequential", new LocalEngine(), new SweepEngine.Options(1, null), arrived));

            // Another holder (this test) takes the whole room first: both tasks start and wait for it.
            HeapRoom.Hold other = HeapRoom.reserve(ROOM, Limits.DEFAULT.withBudget(Budget.ofWork(1, null)));
            assertNotNull(other);
            AtomicInteger sparkArrived = new AtomicInteger();
            CompletableFuture<SweepRun.Summary> spark = CompletableFuture.supplyAsync(() -> sweep("spark",
                    new SparkEngine(), new SweepEngine.Options(2, "local[2]"), sparkArrived));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (tasksWaitingForTheRoom() < 2 && System.nanoTime() < deadline && !spark.isDone()) {
                Thread.sleep(20);
            }
            assertEquals(2, tasksWaitingForTheRoom(), "both tasks wait for the room this test holds");
            assertEquals(0, sparkArrived.get());
            other.close();

            // The room is the tasks' alone now: one builds its program, the other waits for it to end.
            boolean oneWaitedForTheOther = false;
            while (!spark.isDone()) {
                oneWaitedForTheOther |= tasksWaitingForTheRoom() == 1;
                Thread.sleep(5);
            }
            assertEquals(new SweepRun.Summary(2, 0, 2, 0), spark.get());
            assertTrue(oneWaitedForTheOther, "a task waited while the other's program held the room");
        }
        List<String> sequential = rows("sequential");
        assertTrue(sequential.stream().allMatch(r -> r.contains(" OPTIMAL ")), sequential.toString());
        assertEquals(sequential, rows("spark"));
    }
}
