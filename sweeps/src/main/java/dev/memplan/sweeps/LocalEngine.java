package dev.memplan.sweeps;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The embedded engine: a pool of {@code jobs} threads in this JVM, no start-up cost. Outcomes reach the sink on the
 * calling thread in the order cases finish.
 */
public final class LocalEngine implements SweepEngine {

    @Override
    public String name() {
        return "local";
    }

    @Override
    public void run(List<SweepCase> cases, String specHash, Options options, Consumer<CaseOutcome> sink) {
        if (cases.isEmpty()) {
            return;
        }
        int jobs = Math.max(1, Math.min(options.jobs(), cases.size()));
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "memplan-sweep");
            t.setDaemon(true);
            return t;
        });
        try {
            ExecutorCompletionService<CaseOutcome> done = new ExecutorCompletionService<>(pool);
            CaseRunner runner = CaseRunner.shared();
            for (SweepCase c : cases) {
                done.submit(() -> runner.run(c, specHash));
            }
            for (int i = 0; i < cases.size(); i++) {
                sink.accept(done.take().get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SweepException("the sweep was interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a case escaped its error handling", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
