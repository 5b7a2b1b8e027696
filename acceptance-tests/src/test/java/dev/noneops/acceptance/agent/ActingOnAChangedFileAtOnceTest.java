package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.acceptance.machine.RecordingLog;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.daemon.AgentState;
import dev.noneops.core.daemon.NodeDaemon;
import dev.noneops.testkit.node.SimulatedNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops daemon} between its ticks: it looks at the configuration file's metadata every
 * slice, so a file written completely (or renamed into place) is acted on at once, not at the next
 * poll interval; a file whose metadata did not change costs no tick.
 */
class ActingOnAChangedFileAtOnceTest {
  private static final AgentConfig V1 = SimulatedNode.config("1.31.4", "", "blue");
  private static final AgentConfig V1_GREEN = SimulatedNode.config("1.31.4", "", "green");
  /** A poll interval no test outlives: only the metadata check can have the loop tick. */
  private static final Duration NEVER = Duration.ofDays(365);

  private final RecordingLog log = new RecordingLog();
  private final AtomicBoolean stop = new AtomicBoolean();
  private SimulatedNode lab;
  private NodeDaemon daemon;
  private Thread loop;

  @BeforeEach
  void aRunningDaemonOnV1() throws Exception {
    lab = new SimulatedNode();
    lab.bootstrapWithAgent(V1);
    CountDownLatch ready = new CountDownLatch(1);
    daemon = new NodeDaemon(
        lab.host.ports(),
        lab.layout,
        lab.paths,
        (config, previous) -> config.isPresent()
            ? lab.node(config.get(), previous)
            : lab.node(previous.orElseThrow(), previous),
        new NodeDaemon.Settings(SimulatedNode.AGENT_CONFIG_FILE, NEVER, "amd64"),
        new NodeDaemon.Listener() {
          @Override
          public void ready() {
            ready.countDown();
          }

          @Override
          public void status(String line) {}
        },
        log);
    loop = new Thread(
        () -> {
          try {
            daemon.run(stop::get);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        },
        "daemon-under-test");
    loop.start();
    assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (daemon.state().watching().isEmpty() && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    Thread.sleep(300);
  }

  @AfterEach
  void stopTheLoop() throws InterruptedException {
    stop.set(true);
    loop.join(TimeUnit.SECONDS.toMillis(30));
  }

  @Test
  void aFileWrittenBetweenTicksIsAppliedWithoutWaitingForThePollInterval() throws Exception {
    lab.writeDesired(V1_GREEN);

    assertThat(awaitOutcome("APPLIED", Duration.ofSeconds(10)))
        .as("a year's poll interval: only the file's changed metadata can have ticked the loop")
        .isTrue();
  }

  @Test
  void aFileWhoseMetadataDidNotChangeIsNotReadAgain() throws Exception {
    Path file = SimulatedNode.AGENT_CONFIG_FILE;
    long readsBefore = reads(file);

    Thread.sleep(1_000);

    assertThat(reads(file) - readsBefore)
        .as("reads of the unchanged file between ticks")
        .isZero();
  }

  private long reads(Path file) {
    return lab.host.journal().calls(c -> c.is("files.read", file.toString())).size();
  }

  private boolean awaitOutcome(String outcome, Duration within) throws InterruptedException {
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
}
