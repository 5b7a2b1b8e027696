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
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
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
   * running are interrupted.
   */
  public Task parallel(List<Task> tasks) {
    List<Task> children = List.copyOf(tasks);
    return Task.of(compositeName("parallel", children), () -> runAll(children));
  }

  public Task parallel(Task... tasks) {
    return parallel(List.of(tasks));
  }

  private void runAll(List<Task> children) throws InterruptedException {
    List<FutureTask<Void>> futures = new ArrayList<>();
    CompletableFuture<Throwable> firstFailure = new CompletableFuture<>();
    for (Task child : children) {
      FutureTask<Void> future = new FutureTask<>(() -> {
        try {
          execute(child);
        } catch (RuntimeException e) {
          firstFailure.complete(e);
          throw e;
        }
        return null;
      });
      futures.add(future);
    }
    for (FutureTask<Void> future : futures) {
      if (firstFailure.isDone()) {
        future.cancel(false);
      } else {
        parallelExecutor.execute(future);
      }
    }
    firstFailure.whenComplete((failure, ignored) -> futures.forEach(f -> f.cancel(true)));
    for (Future<Void> future : futures) {
      try {
        future.get();
      } catch (CancellationException cancelled) {
        // a sibling failed first; that failure is what is reported
      } catch (ExecutionException e) {
        firstFailure.complete(e.getCause());
      }
    }
    Throwable failure = firstFailure.getNow(null);
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
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
