package dev.noneops.cli.wiring;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a node's parallel tasks (the artifact downloads of {@code prepare}) run on: at most
 * {@link #DEFAULT_THREADS} at a time, so that network transfer, hashing, extraction and fsync of
 * different artifacts overlap without one command flooding a small host; further tasks wait in
 * line. Threads are started on first use (a command that downloads nothing starts none), are
 * daemons (they never keep the JVM alive) and end with {@link #close}.
 */
public final class DownloadThreads implements Executor, AutoCloseable {
  /** How many tasks run at once by default. */
  public static final int DEFAULT_THREADS = 4;

  private final ThreadPoolExecutor pool;

  public DownloadThreads() {
    this(DEFAULT_THREADS);
  }

  public DownloadThreads(int threads) {
    if (threads < 1 || threads > 64) {
      throw new IllegalArgumentException("download threads must be within 1..64: " + threads);
    }
    AtomicInteger counter = new AtomicInteger();
    ThreadFactory factory = task -> {
      Thread t = new Thread(task, "noneops-download-" + counter.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    pool = new ThreadPoolExecutor(
        threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
    pool.allowCoreThreadTimeOut(true);
  }

  /** Runs {@code task} on one of the threads; rejected once closed. */
  @Override
  public void execute(Runnable task) {
    pool.execute(task);
  }

  /** Stops taking tasks and interrupts those still running (their node task has been abandoned). */
  @Override
  public void close() {
    pool.shutdownNow();
  }
}
