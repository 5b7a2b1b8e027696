package dev.noneops.daemon;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.daemon.internal.ClusterEventSink;
import dev.noneops.daemon.internal.DaemonEvents;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.cluster.ClusterNode;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * The Events ({@code events.k8s.io/v1}) a command run outside the daemon reports, as the daemon
 * reports its own (docs/concepts/safety.md, "Events a fleet can alert on"): regarding the node's
 * Machine and related to its Node, the note redacted, sent on a thread of their own so the
 * command is never held up; {@link #close()} gives them at most {@link #FLUSH} to be sent.
 */
public final class ClusterEvents implements AutoCloseable {
  /** How long {@link #close()} waits for the Events still queued to be sent. */
  public static final Duration FLUSH = Duration.ofSeconds(5);

  private final ExecutorService sender;
  private final DaemonEvents events;
  private final HostPorts ports;

  private ClusterEvents(ClusterNode cluster, HostPorts ports, HostPaths paths, Logger log) {
    this.sender = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "noneops-events");
      t.setDaemon(true);
      return t;
    });
    Objects.requireNonNull(cluster, "cluster");
    this.ports = Objects.requireNonNull(ports, "ports");
    this.events = new DaemonEvents(
        new ClusterEventSink(() -> cluster, ports.clock(), log, sender), ports, paths);
  }

  /** Events to the cluster {@code cluster} reaches, about the node on {@code ports}. */
  public static ClusterEvents to(
      ClusterNode cluster, HostPorts ports, HostPaths paths, Logger log) {
    return new ClusterEvents(cluster, ports, paths, log);
  }

  /** An upgrade rolled back, for the reason {@code note} ({@code UpgradeRolledBack}). */
  public void upgradeRolledBack(String note) {
    events.after(new AgentState.Event(
        ports.clock().now(), "upgrade", "ROLLED_BACK", Objects.requireNonNull(note, "note")));
  }

  /** Waits at most {@link #FLUSH} for the queued Events to be sent, then gives up on them. */
  @Override
  public void close() {
    sender.shutdown();
    try {
      if (!sender.awaitTermination(FLUSH.toMillis(), TimeUnit.MILLISECONDS)) {
        sender.shutdownNow();
      }
    } catch (InterruptedException e) {
      sender.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
