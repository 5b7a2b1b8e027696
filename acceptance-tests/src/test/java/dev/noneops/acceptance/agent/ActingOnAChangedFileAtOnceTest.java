package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.acceptance.machine.RecordingLog;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops daemon} between its ticks: it looks at the configuration file's metadata every
 * slice, so a file written completely (or renamed into place) is acted on at once, not at the next
 * poll interval; a file whose metadata did not change costs no tick.
 */
class ActingOnAChangedFileAtOnceTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V1_GREEN = SimNode.config("1.31.4", "", "green");

  private SimNode lab;
  private DaemonLoop daemon;

  @BeforeEach
  void aRunningDaemonOnV1() throws Exception {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    daemon = DaemonLoop.start(lab, DaemonLoop.NEVER, new RecordingLog());
  }

  @AfterEach
  void stopTheLoop() throws InterruptedException {
    daemon.close();
  }

  @Test
  void aFileWrittenBetweenTicksIsAppliedWithoutWaitingForThePollInterval() throws Exception {
    lab.writeDesired(V1_GREEN);

    assertThat(daemon.awaitOutcome("APPLIED", Duration.ofSeconds(10)))
        .as("a year's poll interval: only the file's changed metadata can have ticked the loop")
        .isTrue();
  }

  @Test
  void aFileWhoseMetadataDidNotChangeIsNotReadAgain() throws Exception {
    long reads = daemon.configReads();

    assertThat(daemon.awaitTickAfter(reads, Duration.ofSeconds(1)))
        .as("a read of the unchanged file between ticks")
        .isFalse();
  }
}
