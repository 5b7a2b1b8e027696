package dev.noneops.core.task;

import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.events.NodeEvents;
import dev.noneops.ports.time.HostClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;

/**
 * Executes tasks the way every phase of a node runs: logs {@code started}, then
 * {@code completed} or {@code failed} with the task name, its duration and status as SLF4J
 * key-values, and sends the same as {@link NodeEvent}s. Durations come from the {@link HostClock}
 * port, so they are deterministic under a simulated clock.
 *
 * <p>{@link #serial} and {@link #parallel} compose tasks; every level executes its children
 * through this runner, so each child gets its own log lines and a failure message carries the
 * whole chain ({@code serial(a, b): b: <error>}).
 */
public final class TaskRunner {
  private final Logger log;
  private final NodeEvents events;
  private final HostClock clock;
  private final Executor parallelExecutor;

  /**
   * @param parallelExecutor where {@link #parallel} children run; {@code Runnable::run} runs them
   *     one after the other on the calling thread (deterministic, for simulations)
   */
  public TaskRunner(Logger log, NodeEvents events, HostClock clock, Executor parallelExecutor) {
    this.log = Objects.requireNonNull(log, "log");
    this.events = Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.parallelExecutor = Objects.requireNonNull(parallelExecutor, "parallelExecutor");
  }

  /**
   * Runs {@code task} with started/completed/failed logging and events.
   *
   * @throws TaskFailedException naming the task (and the chain below it) with the original cause
   */
  public void execute(Task task) {
    String name = task.name();
    log.atInfo().addKeyValue("task", name).log("started");
    emit(name, NodeEvent.Kind.STARTED, Duration.ZERO, Optional.empty());
    long begin = clock.nanoTime();
    try {
      task.run();
    } catch (Throwable error) {
      if (error instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      if (error instanceof Error e && !(e instanceof AssertionError)) {
        throw e;
      }
      Duration took = Duration.ofNanos(clock.nanoTime() - begin);
      TaskFailedException failed = TaskFailedException.wrap(name, error);
      log.atError()
          .addKeyValue("task", name)
          .addKeyValue("duration", took)
          .addKeyValue("status", "failed")
          .addKeyValue("error", failed.getMessage())
          .log("failed");
      emit(name, NodeEvent.Kind.FAILED, took, Optional.of(failed.getMessage()));
      throw failed;
    }
    Duration took = Duration.ofNanos(clock.nanoTime() - begin);
    log.atInfo().addKeyValue("task", name).addKeyValue("duration", took).addKeyValue("status", "ok").log("completed");
    emit(name, NodeEvent.Kind.COMPLETED, took, Optional.empty());
  }

  /** Reports progress of a running task (bytes downloaded, unit waited for). */
  public void progress(String task, Map<String, String> details) {
    events.onEvent(new NodeEvent(clock.now(), task, NodeEvent.Kind.PROGRESS, Duration.ZERO, Optional.empty(), details));
  }

  /**
   * A task that executes {@code tasks} in order and stops at the first failure, which it
   * rethrows with its own name prepended to the chain.
   */
  public Task serial(List<Task> tasks) {
    List<Task> children = List.copyOf(tasks);
    return Task.of(compositeName("serial", children), () -> {
      for (Task child : children) {
        execute(child);
      }
    });
  }

  public Task serial(Task... tasks) {
    return serial(List.of(tasks));
  }

  /**
   * A task that starts every child at once on the parallel executor. The first failure is
   * rethrown with the composite's name; children not yet started are skipped and those still
   * running are interrupted. It returns only when no child runs any more, so whoever cleans up
   * after a failure (a staging directory, say) never races a sibling that is still writing.
   */
  public Task parallel(List<Task> tasks) {
    List<Task> children = List.copyOf(tasks);
    return Task.of(compositeName("parallel", children), () -> runAll(children));
  }

  public Task parallel(Task... tasks) {
    return parallel(List.of(tasks));
  }

  private void runAll(List<Task> children) throws InterruptedException {
    CompletableFuture<Throwable> firstFailure = new CompletableFuture<>();
    List<Child> started = new ArrayList<>();
    for (Task task : children) {
      Child child = new Child(task, firstFailure);
      started.add(child);
      if (firstFailure.isDone()) {
        child.skip();
      } else {
        parallelExecutor.execute(child);
      }
    }
    firstFailure.whenComplete((failure, ignored) -> started.forEach(Child::stop));
    try {
      for (Child child : started) {
        child.awaitEnd();
      }
    } catch (InterruptedException e) {
      started.forEach(Child::stop);
      throw e;
    }
    Throwable failure = firstFailure.getNow(null);
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
  }

  /**
   * One child of {@link #parallel}: runs once unless skipped first, can be interrupted while it
   * runs, and tells when it has ended (or will never start).
   */
  private final class Child implements Runnable {
    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int ENDED = 2;

    private final Task task;
    private final CompletableFuture<Throwable> firstFailure;
    private final AtomicInteger state = new AtomicInteger(NEW);
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile Thread runner;
    private boolean interruptedByStop;

    Child(Task task, CompletableFuture<Throwable> firstFailure) {
      this.task = task;
      this.firstFailure = firstFailure;
    }

    @Override
    public void run() {
      runner = Thread.currentThread();
      if (!state.compareAndSet(NEW, RUNNING)) {
        runner = null;
        return;
      }
      try {
        if (!firstFailure.isDone()) {
          execute(task);
        }
      } catch (RuntimeException | Error e) {
        firstFailure.complete(e);
      } finally {
        synchronized (this) {
          state.set(ENDED);
          runner = null;
          if (interruptedByStop) {
            Thread.interrupted(); // ours, not the thread owner's: a pool thread goes back clean
          }
        }
        ended.countDown();
      }
    }

    /** Makes sure it never starts; false when it already has. */
    void skip() {
      if (state.compareAndSet(NEW, ENDED)) {
        ended.countDown();
      }
    }

    /** Skips it, or interrupts it while it runs. */
    void stop() {
      skip();
      synchronized (this) {
        Thread t = runner;
        if (state.get() == RUNNING && t != null) {
          interruptedByStop = true;
          t.interrupt();
        }
      }
    }

    void awaitEnd() throws InterruptedException {
      ended.await();
    }
  }

  private static String compositeName(String kind, List<Task> children) {
    List<String> names = new ArrayList<>();
    for (Task child : children) {
      names.add(child.name());
    }
    return kind + "(" + String.join(", ", names) + ")";
  }

  private void emit(String task, NodeEvent.Kind kind, Duration duration, Optional<String> error) {
    events.onEvent(new NodeEvent(clock.now(), task, kind, duration, error, Map.of()));
  }
}
