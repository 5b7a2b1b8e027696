package dev.noneops.acceptance.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.ClusterEvents;
import dev.noneops.daemon.internal.ClusterEventSink;
import dev.noneops.daemon.internal.DaemonEvents;
import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.machine.SimClusterApi;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * The daemon's Events ({@code events.k8s.io/v1}) on the simulated cluster: one for each outcome a
 * fleet alerts on, regarding the Machine and related to the Node, with a stable reason and a note
 * without secrets; rate-limited, and never holding up the daemon when the API server is slow.
 */
class ClusterEventsTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");

  private final SimNode lab = new SimNode();
  private final SimClusterApi cluster = new SimClusterApi(() -> lab.host.clock().now());
  private DaemonEvents events;
  private String node;

  @BeforeEach
  void aBootstrappedNode() throws IOException {
    lab.bootstrap(V1);
    node = lab.host.ports().facts().read().hostname();
    events = eventsThrough(cluster.client(), Runnable::run);
  }

  private DaemonEvents eventsThrough(ClusterNode nodes, java.util.concurrent.Executor executor) {
    return new DaemonEvents(
        new ClusterEventSink(() -> nodes, lab.host.clock(), NOPLogger.NOP_LOGGER, executor),
        lab.host.ports(),
        lab.paths);
  }

  private AgentState.Event event(String kind, String outcome, String detail) {
    return new AgentState.Event(lab.host.clock().now(), kind, outcome, detail);
  }

  private static List<String> summary(List<ClusterEvent> events) {
    return events.stream()
        .map(e -> e.type().wire() + " " + e.reason() + " " + e.regarding().kind() + "/"
            + e.regarding().name() + " "
            + e.related().map(r -> r.kind() + "/" + r.name()).orElse("-"))
        .toList();
  }

  @Test
  void eachOutcomeAFleetAlertsOnIsAnEventRegardingTheMachineAndRelatedToTheNode() {
    events.after(event("repave", "REPAVED", "the node runs 1.31.3"));
    events.after(event("repave", "ROLLED_BACK", "the target rolled back"));
    events.after(event("repave", "DRAIN_BLOCKED", "shop/web-1 blocks the drain"));
    events.after(event("upgrade", "ROLLED_BACK", "kubelet never became Ready"));
    events.quarantined("1.31.3-abc", "kubelet never became Ready");
    events.after(event("boot-recovery", "ROLLED_BACK", "rolled back to 1.31.2"));
    events.after(event("upgrade", "COMMITTED", "1.31.2 → 1.31.3 committed"));
    events.after(event("repave", "NOTHING_TO_DO", ""));

    assertThat(summary(cluster.events()))
        .containsExactly(
            "Normal Repaved Machine/worker-1 Node/" + node,
            "Warning RepaveRolledBack Machine/worker-1 Node/" + node,
            "Warning RepaveFailed Machine/worker-1 Node/" + node,
            "Warning UpgradeRolledBack Machine/worker-1 Node/" + node,
            "Warning TargetQuarantined Machine/worker-1 Node/" + node,
            "Warning RecoveryRolledBack Machine/worker-1 Node/" + node);
    assertThat(cluster.events()).allSatisfy(e -> {
      assertThat(e.regarding().apiVersion()).isEqualTo("unbounded-cloud.io/v1alpha3");
      assertThat(e.reportingController()).isEqualTo("unbounded-cloud.io/noneops-agent");
    });
  }

  @Test
  void aCommandOutsideTheDaemonReportsItsRollbackAndClosingSendsIt() {
    try (ClusterEvents commandEvents =
        ClusterEvents.to(cluster.client(), lab.host.ports(), lab.paths, NOPLogger.NOP_LOGGER)) {
      commandEvents.upgradeRolledBack("the cluster did not see the node Ready within 5m");
    }

    assertThat(summary(cluster.events()))
        .containsExactly("Warning UpgradeRolledBack Machine/worker-1 Node/" + node);
    assertThat(cluster.events().get(0).action()).isEqualTo("Upgrade");
  }

  @Test
  void aNoteCarriesNoDownloadUrlsQueryOrUserInformation() {
    events.after(event(
        "upgrade",
        "ROLLED_BACK",
        "download of https://user:secret@blob.example/kubelet?sv=2024&sig=abc123 failed"));

    String note = cluster.events().get(0).note();
    assertThat(note).doesNotContain("secret").doesNotContain("abc123").doesNotContain("user:");
    assertThat(note).contains("blob.example/kubelet");
  }

  @Test
  void theSameReasonAboutTheSameObjectIsSentOncePerInterval() {
    events.after(event("upgrade", "ROLLED_BACK", "first"));
    events.after(event("upgrade", "ROLLED_BACK", "second"));
    lab.host.clock().advance(ClusterEventSink.SAME_REASON_INTERVAL);
    events.after(event("upgrade", "ROLLED_BACK", "third"));

    assertThat(cluster.events()).extracting(ClusterEvent::note).containsExactly("first", "third");
    assertThat(events.sink().dropped()).isEqualTo(1);
  }

  @Test
  void anApiServerThatCannotBeReachedCostsTheDaemonNothing() {
    cluster.unreachable(true);

    events.after(event("upgrade", "ROLLED_BACK", "kubelet never became Ready"));

    assertThat(cluster.events()).isEmpty();
    assertThat(events.sink().waiting()).isZero();
  }

  @Test
  void aSlowApiServerNeverHoldsUpTheDaemonAndTheQueueIsBounded() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    List<ClusterEvent> sent = new ArrayList<>();
    ClusterNode slow = new dev.noneops.acceptance.machine.ClusterNodeDelegate(cluster.client()) {
      @Override
      public void recordEvent(ClusterEvent event) throws IOException {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        synchronized (sent) {
          sent.add(event);
        }
      }
    };
    ExecutorService sender = Executors.newSingleThreadExecutor();
    try {
      DaemonEvents slowEvents = eventsThrough(slow, sender);
      long begin = System.nanoTime();
      for (int i = 0; i < ClusterEventSink.CAPACITY + 10; i++) {
        lab.host.clock().advance(ClusterEventSink.SAME_REASON_INTERVAL);
        slowEvents.after(event("upgrade", "ROLLED_BACK", "attempt " + i));
      }
      assertThat(Duration.ofNanos(System.nanoTime() - begin))
          .as("offering never waits for the API server")
          .isLessThan(Duration.ofSeconds(5));
      assertThat(slowEvents.sink().waiting()).isLessThanOrEqualTo(ClusterEventSink.CAPACITY);
      assertThat(slowEvents.sink().dropped()).isPositive();

      release.countDown();
      sender.shutdown();
      assertThat(sender.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      synchronized (sent) {
        assertThat(sent).hasSizeBetween(ClusterEventSink.CAPACITY, ClusterEventSink.CAPACITY + 1);
      }
    } finally {
      release.countDown();
      sender.shutdownNow();
    }
  }
}
