package dev.noneops.acceptance.agent;

import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * A {@link NodeDaemon} of a simulated node running its own loop on a thread, as {@code noneops
 * daemon} runs it: started, ready, and past its first tick when {@link #start} returns; stopped
 * by {@link #close}. With a poll interval no test outlives, only a wake-up can make it tick.
 */
final class DaemonLoop implements AutoCloseable {
  /** A poll interval no test outlives. */
  static final Duration NEVER = Duration.ofDays(365);

  private final SimNode lab;
  private final NodeDaemon daemon;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread loop;

  private DaemonLoop(SimNode lab, NodeDaemon daemon) {
    this.lab = lab;
    this.daemon = daemon;
    this.loop = new Thread(
        () -> {
          try {
            daemon.run(stop::get);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        },
        "daemon-under-test");
  }

  /** Starts the daemon of {@code lab}'s agent file, polling every {@code pollInterval}. */
  static DaemonLoop start(SimNode lab, Duration pollInterval, Logger log)
      throws InterruptedException {
    CountDownLatch ready = new CountDownLatch(1);
    NodeDaemon daemon = lab.daemon(
        pollInterval,
        new NodeDaemon.Listener() {
          @Override
          public void ready() {
            ready.countDown();
          }

          @Override
          public void status(String line) {}
        },
        log);
    DaemonLoop running = new DaemonLoop(lab, daemon);
    running.loop.start();
    if (!ready.await(10, TimeUnit.SECONDS)) {
      running.close();
      throw new AssertionError("the daemon did not report ready within 10 s");
    }
    // the first tick has read the file: it records what it acted on at start, then ticks
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (daemon.state().watching().isEmpty() && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    Thread.sleep(300);
    return running;
  }

  /** Whether the daemon's last operation came to {@code outcome} within {@code within}. */
  boolean awaitOutcome(String outcome, Duration within) throws InterruptedException {
    long until = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < until) {
      if (daemon
          .state()
          .lastOperation()
          .map(AgentState.Event::outcome)
          .filter(outcome::equals)
          .isPresent()) {
        return true;
      }
      Thread.sleep(10);
    }
    return false;
  }

  /** How many times the daemon has read its configuration file: once per tick. */
  long configReads() {
    return lab.host
        .journal()
        .calls(c -> c.is("files.read", SimNode.AGENT_CONFIG_FILE.toString()))
        .size();
  }

  /** Whether the daemon read its file again (ticked) within {@code within} after {@code reads}. */
  boolean awaitTickAfter(long reads, Duration within) throws InterruptedException {
    long until = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < until) {
      if (configReads() > reads) {
        return true;
      }
      Thread.sleep(10);
    }
    return false;
  }

  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    loop.join(TimeUnit.SECONDS.toMillis(30));
  }
}
