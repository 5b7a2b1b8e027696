package dev.noneops.core.node.internal.task;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.UrlRedaction;
import dev.noneops.core.node.TaskFailedException;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.events.NodeEvents;
import dev.noneops.ports.time.HostClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
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
 * <p>A failure is reported once, at the task where it happened: one {@code FAILED} event and one
 * ERROR log line carrying its message and its task path ({@code start › wait-kubelet}); each task
 * around it ends with an {@code ABORTED} event naming that path, without repeating the message.
 * The error itself is rethrown: a {@link NoneopsException} with its {@link
 * NoneopsException#taskPath() task path} recorded, any other error wrapped once in a {@link
 * TaskFailedException}.
 *
 * <p>{@link #serial} and {@link #parallel} compose tasks under a name; every level executes its
 * children through this runner, so each child gets its own log lines. {@link #call} runs a task
 * that returns a value.
 */
public final class TaskRunner {
  private final Logger log;
  private final NodeEvents events;
  private final HostClock clock;
  private final Executor parallelExecutor;
  private final ThreadLocal<List<String>> running = ThreadLocal.withInitial(List::of);

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
   * @throws NoneopsException the failure, with the path of the task where it happened
   */
  public void execute(Task task) {
    call(task.name(), () -> {
      task.run();
      return null;
    });
  }

  /** Runs {@code body} as the task {@code name}, like {@link #execute}, and returns its value. */
  public <T> T call(String name, Callable<T> body) {
    Objects.requireNonNull(body, "body");
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a task needs a name");
    }
    List<String> outer = running.get();
    List<String> here = append(outer, name);
    running.set(here);
    try {
      log.atInfo().addKeyValue("task", name).log("started");
      emit(name, NodeEvent.Kind.STARTED, Duration.ZERO, Optional.empty(), Map.of());
      long begin = clock.nanoTime();
      T value;
      try {
        value = body.call();
      } catch (Throwable error) {
        throw failed(name, here, Duration.ofNanos(clock.nanoTime() - begin), error);
      }
      Duration took = Duration.ofNanos(clock.nanoTime() - begin);
      log.atInfo()
          .addKeyValue("task", name)
          .addKeyValue("duration", took)
          .addKeyValue("status", "ok")
          .log("completed");
      emit(name, NodeEvent.Kind.COMPLETED, took, Optional.empty(), Map.of());
      return value;
    } finally {
      running.set(outer);
    }
  }

  /**
   * Reports how the task {@code name} at {@code here} ended with {@code error} and returns what
   * to throw: FAILED where the failure happened, ABORTED in every task around it.
   */
  private RuntimeException failed(String name, List<String> here, Duration took, Throwable error) {
    if (error instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    if (error instanceof Error e && !(e instanceof AssertionError)) {
      throw e;
    }
    NoneopsException failure =
        error instanceof NoneopsException typed ? typed : new TaskFailedException(here, error);
    TaskFailedException.locateAt(failure, here);
    String failedAt = failure.failedAt().orElseThrow();
    if (failure.taskPath().equals(here)) {
      log.atError()
          .addKeyValue("task", name)
          .addKeyValue("duration", took)
          .addKeyValue("status", "failed")
          .addKeyValue("failedAt", failedAt)
          .addKeyValue("error", UrlRedaction.redact(failure.getMessage()))
          .log("failed");
      emit(
          name,
          NodeEvent.Kind.FAILED,
          took,
          Optional.of(String.valueOf(failure.getMessage())),
          Map.of("failedAt", failedAt));
    } else {
      String failedTask = failure.taskPath().get(failure.taskPath().size() - 1);
      log.atInfo()
          .addKeyValue("task", name)
          .addKeyValue("duration", took)
          .addKeyValue("status", "aborted")
          .addKeyValue("failedAt", failedAt)
          .log("ended because " + failedTask + " failed");
      emit(
          name,
          NodeEvent.Kind.ABORTED,
          took,
          Optional.empty(),
          Map.of("failedAt", failedAt, "failedTask", failedTask));
    }
    return failure;
  }

  /** Reports progress of a running task (bytes downloaded, unit waited for). */
  public void progress(String task, Map<String, String> details) {
    events.onEvent(new NodeEvent(
        clock.now(), task, NodeEvent.Kind.PROGRESS, Duration.ZERO, Optional.empty(), details));
  }

  /** The task {@code name}: executes {@code tasks} in order and stops at the first failure, which it rethrows. */
  public Task serial(String name, List<Task> tasks) {
    List<Task> children = List.copyOf(tasks);
    return Task.of(name, () -> {
      for (Task child : children) {
        execute(child);
      }
    });
  }

  public Task serial(String name, Task... tasks) {
    return serial(name, List.of(tasks));
  }

  /**
   * The task {@code name}: starts every child at once on the parallel executor. The first failure
   * is rethrown; children not yet started are skipped and those still running are interrupted.
   * It returns only when no child runs any more, so whoever cleans up after a failure (a staging
   * directory, say) never races a sibling that is still writing.
   */
  public Task parallel(String name, List<Task> tasks) {
    List<Task> children = List.copyOf(tasks);
    return Task.of(name, () -> runAll(children));
  }

  public Task parallel(String name, Task... tasks) {
    return parallel(name, List.of(tasks));
  }

  private void runAll(List<Task> children) throws InterruptedException {
    CompletableFuture<Throwable> firstFailure = new CompletableFuture<>();
    List<Child> started = new ArrayList<>();
    List<String> parent = running.get();
    for (Task task : children) {
      Child child = new Child(task, parent, firstFailure);
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
    private final List<String> parent;
    private final CompletableFuture<Throwable> firstFailure;
    private final AtomicInteger state = new AtomicInteger(NEW);
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile Thread runner;
    private boolean interruptedByStop;

    Child(Task task, List<String> parent, CompletableFuture<Throwable> firstFailure) {
      this.task = task;
      this.parent = parent;
      this.firstFailure = firstFailure;
    }

    @Override
    public void run() {
      runner = Thread.currentThread();
      if (!state.compareAndSet(NEW, RUNNING)) {
        runner = null;
        return;
      }
      List<String> callers = running.get();
      running.set(parent);
      try {
        if (!firstFailure.isDone()) {
          execute(task);
        }
      } catch (RuntimeException | Error e) {
        firstFailure.complete(e);
      } finally {
        running.set(callers);
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

  private static List<String> append(List<String> path, String name) {
    List<String> longer = new ArrayList<>(path);
    longer.add(name);
    return List.copyOf(longer);
  }

  private void emit(
      String task,
      NodeEvent.Kind kind,
      Duration duration,
      Optional<String> error,
      Map<String, String> details) {
    events.onEvent(new NodeEvent(clock.now(), task, kind, duration, error, details));
  }
}
