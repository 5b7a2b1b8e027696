package dev.noneops.daemon.internal;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.daemon.AgentState;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterEvent.ObjectRef;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * The daemon's outcomes a fleet can alert on, as Kubernetes Events regarding the node's Machine
 * and related to its Node: a repave ({@code Repaved}, {@code RepaveRolledBack}, {@code
 * RepaveFailed}), an upgrade that rolled back ({@code UpgradeRolledBack}), a target quarantined
 * ({@code TargetQuarantined}) and a recovery that rolled back ({@code RecoveryRolledBack}, the
 * boot's recovery gate's or the daemon's own at its start). Without a Machine name (the applied
 * configuration's {@code MachineName}) an Event regards the Node. Events go through a {@link
 * ClusterEventSink}: never blocking, rate-limited, notes redacted.
 */
public final class DaemonEvents {
  /** The Machine's API version (group {@code unbounded-cloud.io}). */
  public static final String MACHINE_API_VERSION = "unbounded-cloud.io/v1alpha3";

  /** Where Events about cluster-scoped objects (the Machine, the Node) are created. */
  public static final String NAMESPACE = "default";

  /** The controller the Events name as theirs. */
  public static final String CONTROLLER = "unbounded-cloud.io/noneops-agent";

  private final ClusterEventSink sink;
  private final HostPorts ports;
  private final HostPaths paths;

  public DaemonEvents(ClusterEventSink sink, HostPorts ports, HostPaths paths) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.ports = Objects.requireNonNull(ports, "ports");
    this.paths = Objects.requireNonNull(paths, "paths");
  }

  /** Tells the cluster of {@code event} when it is one a fleet alerts on. */
  public void after(AgentState.Event event) {
    reasonOf(event).ifPresent(r -> send(r, event.kind(), event.detail()));
  }

  /** The target {@code targetVersion} is quarantined until the configuration changes. */
  public void quarantined(String targetVersion, String reason) {
    send(
        new Reason("TargetQuarantined", ClusterEvent.Type.WARNING),
        "Quarantine",
        targetVersion + " stays quarantined until the configuration changes: " + reason);
  }

  /** The sink the Events go through. */
  public ClusterEventSink sink() {
    return sink;
  }

  private record Reason(String reason, ClusterEvent.Type type) {}

  private static Optional<Reason> reasonOf(AgentState.Event e) {
    switch (e.kind()) {
      case "repave":
        switch (e.outcome()) {
          case "REPAVED":
            return Optional.of(new Reason("Repaved", ClusterEvent.Type.NORMAL));
          case "ROLLED_BACK":
            return Optional.of(new Reason("RepaveRolledBack", ClusterEvent.Type.WARNING));
          case "INVALID_SPEC", "DRAIN_BLOCKED", "NOT_REGISTERED", "FAILED":
            return Optional.of(new Reason("RepaveFailed", ClusterEvent.Type.WARNING));
          default:
            return Optional.empty();
        }
      case "upgrade":
        return e.outcome().equals("ROLLED_BACK")
            ? Optional.of(new Reason("UpgradeRolledBack", ClusterEvent.Type.WARNING))
            : Optional.empty();
      case "start-recovery", "boot-recovery":
        return e.outcome().equals("ROLLED_BACK")
            ? Optional.of(new Reason("RecoveryRolledBack", ClusterEvent.Type.WARNING))
            : Optional.empty();
      default:
        return Optional.empty();
    }
  }

  private void send(Reason reason, String kind, String note) {
    String node;
    try {
      node = ports.facts().read().hostname();
    } catch (IOException | RuntimeException e) {
      node = "";
    }
    Optional<String> machine = machineName();
    Optional<ObjectRef> nodeRef =
        node.isEmpty() ? Optional.empty() : Optional.of(ObjectRef.node(node));
    ObjectRef regarding;
    Optional<ObjectRef> related;
    if (machine.isPresent()) {
      regarding = new ObjectRef(MACHINE_API_VERSION, "Machine", "", machine.get());
      related = nodeRef;
    } else if (nodeRef.isPresent()) {
      regarding = nodeRef.get();
      related = Optional.empty();
    } else {
      return;
    }
    sink.offer(new ClusterEvent(
        NAMESPACE,
        regarding,
        related,
        reason.type(),
        reason.reason(),
        action(kind),
        note,
        ports.clock().now(),
        CONTROLLER,
        node.isEmpty() ? "noneops" : node));
  }

  private static String action(String kind) {
    return switch (kind) {
      case "repave" -> "Repave";
      case "upgrade" -> "Upgrade";
      case "start-recovery", "boot-recovery" -> "Recover";
      default ->
        kind.isEmpty() ? "Operate" : Character.toUpperCase(kind.charAt(0)) + kind.substring(1);
    };
  }

  private Optional<String> machineName() {
    try {
      return new AppliedConfigStore(ports.files(), paths)
          .read()
          .map(AgentConfig::machineName)
          .map(String::trim)
          .filter(n -> !n.isEmpty());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
