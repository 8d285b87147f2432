package dev.memplan.baselines.allocation.minimalloc;

import dev.memplan.model.Budget;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Decides one capacity: searches with the preordering heuristics of the options on up to {@code threads}
 * threads, the first thread to find a packing or to prove there is none settling the race for all.
 *
 * <p>Thread i of k (k at most the number of heuristics) takes the heuristics i, i + k, i + 2k, ... With
 * restarts on, a thread with several heuristics runs them round-robin with a node budget that starts at
 * twice the buffer count and doubles every round (the reference program's restarts); otherwise it searches
 * with its first heuristic and no budget. A search that ends within its budget is complete either way, so
 * its answer is final.
 */
final class Race {
    /** How a decision ended. */
    enum Verdict {
        PACKED,
        INFEASIBLE,
        /** Every thread spent its node limit. */
        UNDECIDED,
        /** Time limit or interruption. */
        STOPPED
    }

    /** The verdict, the offsets when packed, and the work ({@link Search#effort()}) of every thread together. */
    record Result(Verdict verdict, long[] offsets, long effort) {
        Result(Verdict verdict, long[] offsets) {
            this(verdict, offsets, 0);
        }
    }

    private final Instance instance;
    private final MiniMallocOptions options;
    private final long capacity;
    private final long deadline;
    private final long nodeLimit;

    private volatile boolean settled;
    private Result result;
    private Throwable failure;
    private int exhausted;
    private long effort;
    private long effortLimit = Long.MAX_VALUE;
    /** The stop flag the search polls besides its deadline: a cancel of the budget, or Ctrl-C. */
    private Budget budget = Budget.unlimited();

    private Race(Instance instance, MiniMallocOptions options, long capacity, long deadline, long nodeLimit) {
        this.instance = instance;
        this.options = options;
        this.capacity = capacity;
        this.deadline = deadline;
        this.nodeLimit = nodeLimit;
    }

    /**
     * Decides whether {@code instance} packs into {@code capacity}, stopping at {@code deadline}
     * ({@link System#nanoTime()} value, {@link Long#MAX_VALUE} for none), when the calling thread is
     * interrupted (its interrupt flag is kept) or when every thread has visited {@code nodeLimit} nodes.
     */
    static Result decide(Instance instance, MiniMallocOptions options, long capacity, long deadline, int threads,
                         long nodeLimit) {
        return new Race(instance, options, capacity, deadline, nodeLimit).run(threads);
    }

    /**
     * As {@link #decide}, each thread also ending as undecided after {@code effortLimit} of work, and stopping
     * once {@code budget}'s stop flag is set.
     */
    static Result decide(Instance instance, MiniMallocOptions options, long capacity, long deadline, int threads,
                         long nodeLimit, long effortLimit, Budget budget) {
        Race race = new Race(instance, options, capacity, deadline, nodeLimit);
        race.effortLimit = effortLimit;
        race.budget = budget;
        return race.run(threads);
    }

    private Result run(int threads) {
        List<String> heuristics = options.preorderings();
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
                } catch (RuntimeException | Error e) {
                    synchronized (this) {
                        failure = failure == null ? e : failure;
                    }
                    settled = true;
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
            if (failure != null) {
                throw new IllegalStateException("minimalloc search thread failed", failure);
            }
            Result r = result != null ? result
                    : new Result(exhausted == k && !interrupted ? Verdict.UNDECIDED : Verdict.STOPPED, null);
            return new Result(r.verdict(), r.offsets(), effort);
        }
    }

    private void work(List<String> share) {
        Search search = new Search(instance.sweep, options, capacity, instance.size, instance.alignment,
                instance.fixed, instance.lower, instance.upper,
                () -> settled || budget.requested() || (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0), nodeLimit);
        search.effortLimit = effortLimit;
        int status;
        if (share.size() == 1 || !options.restarts()) {
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
            effort += search.effort();
            if (result == null && status == Search.FOUND) {
                result = new Result(Verdict.PACKED, search.solution.clone());
            } else if (result == null && status == Search.NOT_FOUND) {
                result = new Result(Verdict.INFEASIBLE, null);
            } else if (status == Search.EXHAUSTED) {
                exhausted++;
            }
        }
        if (status == Search.FOUND || status == Search.NOT_FOUND) {
            settled = true;
        }
    }
}
