package dev.memplan.baselines.allocation.minimalloc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Decides one capacity: searches with the preordering heuristics of the options on up to {@code threads}
 * threads, the first thread to find a packing or to prove there is none settling the race for all.
 *
 * <p>Thread i takes the heuristics i, i + k, i + 2k, ... of the k threads. A thread with several heuristics
 * runs them round-robin with a node budget that starts at twice the buffer count and doubles every round
 * (the reference program's restarts); a thread with one heuristic searches without budget. A search that
 * ends within its budget is complete either way, so its answer is final.
 */
final class Race {
    /** How a decision ended. */
    enum Verdict { PACKED, INFEASIBLE, STOPPED }

    /** The verdict, the offsets when packed, and the nodes visited by all threads. */
    record Result(Verdict verdict, long[] offsets, long nodes) {
    }

    private final Instance instance;
    private final MiniMallocOptions options;
    private final long capacity;
    private final long deadline;

    private volatile boolean settled;
    private Result result;
    private long nodes;

    private Race(Instance instance, MiniMallocOptions options, long capacity, long deadline) {
        this.instance = instance;
        this.options = options;
        this.capacity = capacity;
        this.deadline = deadline;
    }

    /**
     * Decides whether {@code instance} packs into {@code capacity}, stopping at {@code deadline}
     * ({@link System#nanoTime()} value, {@link Long#MAX_VALUE} for none) or when the calling thread is
     * interrupted (its interrupt flag is kept).
     */
    static Result decide(Instance instance, MiniMallocOptions options, long capacity, long deadline, int threads) {
        return new Race(instance, options, capacity, deadline).run(threads);
    }

    private Result run(int threads) {
        List<String> heuristics = options.restarts() ? options.preorderings()
                : List.of(options.preorderings().get(0));
        int k = Math.max(1, Math.min(threads, heuristics.size()));
        List<List<String>> shares = new ArrayList<>();
        for (int t = 0; t < k; t++) {
            shares.add(new ArrayList<>());
        }
        for (int h = 0; h < heuristics.size(); h++) {
            shares.get(h % k).add(heuristics.get(h));
        }
        CountDownLatch finished = new CountDownLatch(k);
        // Deep canonical searches recurse once per placed buffer; give them room beyond the default stack.
        long stackBytes = (1L << 20) + 4096L * instance.n;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < k; t++) {
            List<String> share = shares.get(t);
            Thread worker = new Thread(null, () -> {
                try {
                    work(share);
                } finally {
                    finished.countDown();
                }
            }, "minimalloc-" + t, stackBytes);
            worker.setDaemon(true);
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        boolean interrupted = false;
        while (true) {
            try {
                finished.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                settled = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            return result != null ? new Result(result.verdict(), result.offsets(), nodes)
                    : new Result(Verdict.STOPPED, null, nodes);
        }
    }

    private void work(List<String> share) {
        Search search = new Search(instance.sweep, options, capacity, instance.size, instance.alignment,
                instance.fixed, instance.lower, instance.upper,
                () -> settled || (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0));
        int status;
        if (share.size() == 1) {
            status = search.run(share.get(0), Long.MAX_VALUE);
        } else {
            status = Search.ABORTED;
            long budget = Math.max(1, instance.n);
            while (status == Search.ABORTED) {
                budget = budget > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * budget;
                for (String heuristic : share) {
                    status = search.run(heuristic, budget);
                    if (status != Search.ABORTED) {
                        break;
                    }
                }
            }
        }
        synchronized (this) {
            nodes += search.nodes();
            if (result == null && status == Search.FOUND) {
                result = new Result(Verdict.PACKED, search.solution.clone(), 0);
            } else if (result == null && status == Search.NOT_FOUND) {
                result = new Result(Verdict.INFEASIBLE, null, 0);
            }
        }
        if (status != Search.STOPPED) {
            settled = true;
        }
    }
}
