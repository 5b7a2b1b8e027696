package dev.noneops.systemd;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Matches systemd's {@code JobRemoved} signals to the jobs this adapter enqueued, without races.
 *
 * <p>The signal handler calls {@link #jobRemoved} and never blocks. A caller that got a job path
 * back from {@code StartUnit} and friends calls {@link #await}. A signal that arrives before the
 * caller registered its interest (the reply and the signal are dispatched on different threads, so
 * either may come first) is parked in a bounded buffer that {@link #await} checks first; both
 * sides work under one lock, so no signal falls between them.
 */
final class JobTracker {
  /** Signals for jobs nobody awaits yet; bounded because every client's jobs are broadcast. */
  static final int UNCLAIMED_CAPACITY = 4096;

  private final Object lock = new Object();
  private final Map<String, CompletableFuture<String>> awaited = new HashMap<>();
  private final LinkedHashMap<String, String> unclaimed = new LinkedHashMap<>() {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > UNCLAIMED_CAPACITY;
    }
  };
  private RuntimeException failure;

  /** Records that the job at {@code jobPath} ended with systemd's {@code result} string. */
  void jobRemoved(String jobPath, String result) {
    CompletableFuture<String> waiter;
    synchronized (lock) {
      waiter = awaited.remove(jobPath);
      if (waiter == null) {
        unclaimed.put(jobPath, result);
        return;
      }
    }
    waiter.complete(result);
  }

  /**
   * Waits until the job at {@code jobPath} ends and returns systemd's result string, or returns
   * empty when {@code deadline} passed first.
   *
   * @throws RuntimeException the failure given to {@link #failAll}, when the bus went away
   */
  Optional<String> await(String jobPath, Deadline deadline) throws InterruptedException {
    Objects.requireNonNull(jobPath, "jobPath");
    CompletableFuture<String> waiter;
    synchronized (lock) {
      if (failure != null) {
        throw failure;
      }
      String early = unclaimed.remove(jobPath);
      if (early != null) {
        return Optional.of(early);
      }
      waiter = awaited.computeIfAbsent(jobPath, path -> new CompletableFuture<>());
    }
    try {
      return Optional.of(waiter.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS));
    } catch (TimeoutException e) {
      return Optional.empty();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      synchronized (lock) {
        awaited.remove(jobPath, waiter);
      }
    }
  }

  /** Wakes every waiter with {@code cause} and makes later waits fail at once with it. */
  void failAll(RuntimeException cause) {
    Map<String, CompletableFuture<String>> waiting;
    synchronized (lock) {
      if (failure == null) {
        failure = cause;
      }
      waiting = new HashMap<>(awaited);
      awaited.clear();
    }
    waiting.values().forEach(waiter -> waiter.completeExceptionally(cause));
  }

  /** The bus is reachable again: later waits no longer fail with the cause given to {@link #failAll}. */
  void reconnected() {
    synchronized (lock) {
      failure = null;
    }
  }

  /** How many ended jobs nobody has claimed yet (for tests of the buffer bound). */
  int unclaimedCount() {
    synchronized (lock) {
      return unclaimed.size();
    }
  }
}
