package dev.noneops.daemon.internal;

import dev.noneops.core.config.UrlRedaction;
import dev.noneops.daemon.AgentState;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * Runs the {@link MachineFollower}'s API work (registration, the watch, repave passes) off the
 * daemon's tick thread, one piece at a time: an API server that does not answer holds up only
 * the Machine, not the configuration file or the unit watch. A tick while a piece is under way
 * adds nothing (the follower remembers what it still has to do). Operations still serialize with
 * the daemon's own through the node lock; a busy node is retried, as the follower does anyway.
 */
public final class MachineWorker {
  private final MachineFollower follower;
  private final Executor executor;
  private final Optional<ExecutorService> owned;
  private final Logger log;
  private final AtomicBoolean busy = new AtomicBoolean();

  private MachineWorker(
      MachineFollower follower, Executor executor, Optional<ExecutorService> owned, Logger log) {
    this.follower = follower;
    this.executor = executor;
    this.owned = owned;
    this.log = log;
  }

  /** A worker on a thread of its own, which {@link #stop} ends. */
  public static MachineWorker onItsOwnThread(MachineFollower follower, Logger log) {
    ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "noneops-machine");
      t.setDaemon(true);
      return t;
    });
    return new MachineWorker(follower, thread, Optional.of(thread), log);
  }

  /** A worker on {@code executor}; {@code Runnable::run} runs the work on the daemon's thread. */
  public static MachineWorker on(Executor executor, MachineFollower follower, Logger log) {
    return new MachineWorker(follower, executor, Optional.empty(), log);
  }

  /**
   * At the daemon's start, after its recovery: registration and the watch, when the applied
   * configuration names a Machine ({@link MachineFollower#wanted}); else only the recoveries
   * remembered, on the caller's thread.
   */
  public void start(AgentState afterRecovery) {
    if (follower.wanted()) {
      submit(() -> follower.start(afterRecovery));
    } else {
      follower.remember(afterRecovery);
    }
  }

  /** The Machine's repave counters as last seen: asked, acknowledged ({@link MachineFollower#repaveCounters}). */
  public Optional<long[]> repaveCounters() {
    return follower.repaveCounters();
  }

  /**
   * At a tick: a pass of the follower, unless one is under way or it has no work ({@link
   * MachineFollower#wanted}: a node that follows no Machine starts no thread for it).
   */
  public void tick() {
    if (follower.wanted()) {
      submit(follower::tick);
    }
  }

  /**
   * Ends the work: waits up to {@code grace} for a piece under way (each of its steps is one a
   * crash can interrupt safely, so what a longer one leaves, the next start recovers), then stops
   * the Machine's watch.
   */
  public void stop(Duration grace) throws InterruptedException {
    if (owned.isPresent()) {
      owned.get().shutdown();
      if (!owned.get().awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("stopping with a Machine operation in progress; the next start recovers it");
        return;
      }
    }
    follower.close();
  }

  private void submit(Runnable work) {
    if (!busy.compareAndSet(false, true)) {
      return;
    }
    try {
      executor.execute(() -> {
        try {
          work.run();
        } catch (RuntimeException e) {
          log.error(
              "the Machine follower failed: {}; it tries again at a later tick",
              UrlRedaction.redact(e.toString()));
        } finally {
          busy.set(false);
        }
      });
    } catch (RejectedExecutionException stopped) {
      busy.set(false);
    }
  }
}
