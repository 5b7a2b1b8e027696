package dev.noneops.core.node.internal.stack;

import dev.noneops.core.node.ClusterCheck;
import dev.noneops.core.node.NodeException;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.host.HostFacts;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The cluster's part of the readiness gate (docs/concepts/safety.md): after kubelet's healthz
 * answers, the Node named by this node must exist, report the target's kubelet version and this
 * boot's id, and have its {@code Ready} condition {@code True} with a heartbeat (the condition's
 * or its Lease's renewal) newer than the switch, within {@link ClusterCheck#readyWithin()} of the
 * switch. The Node is read every {@link #POLL}; the wait ends as soon as every condition holds.
 *
 * <p>An API server that cannot be reached during the wait does not end it: the wait goes on to
 * its bound (the API server may come back), and fails then, naming {@code API server unreachable
 * during the wait} when that was the last answer. A node whose cluster cannot tell it is Ready is
 * not taken for healthy.
 */
public final class ClusterReadyGate {
  /** How often the Node is read during the wait. */
  public static final Duration POLL = Duration.ofSeconds(2);

  private final ClusterCheck check;
  private final HostFacts facts;
  private final HostClock clock;
  private final Logger log;

  public ClusterReadyGate(ClusterCheck check, HostFacts facts, HostClock clock, Logger log) {
    this.check = Objects.requireNonNull(check, "check");
    this.facts = Objects.requireNonNull(facts, "facts");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.log = Objects.requireNonNull(log, "log");
  }

  public ClusterCheck check() {
    return check;
  }

  /**
   * The API server's version ({@code /version}); an error when it cannot be asked (unreachable,
   * credentials refused or unusable).
   */
  public String serverVersion() throws IOException {
    return check.cluster().serverVersion();
  }

  /**
   * Waits until the cluster sees {@code node} Ready with kubelet {@code kubeletVersion} on this
   * boot, with a heartbeat after {@code switchedAt}.
   *
   * @throws NodeException naming the condition that did not hold at the bound
   */
  public void await(String node, String kubeletVersion, Instant switchedAt)
      throws InterruptedException {
    long begin = clock.nanoTime();
    Duration bound = check.readyWithin();
    String bootId = bootId();
    while (true) {
      Optional<String> missing = missing(node, kubeletVersion, bootId, switchedAt);
      if (missing.isEmpty()) {
        log.atInfo()
            .addKeyValue("node", node)
            .addKeyValue("kubeletVersion", kubeletVersion)
            .log("the cluster sees the node Ready");
        return;
      }
      Duration waited = Duration.ofNanos(clock.nanoTime() - begin);
      if (waited.compareTo(bound) >= 0) {
        throw new NodeException("the cluster did not see the node Ready within " + describe(bound)
            + ": " + missing.get());
      }
      Duration left = bound.minus(waited);
      clock.sleep(left.compareTo(POLL) < 0 ? left : POLL);
    }
  }

  /** What does not hold now, in words; empty when every condition holds. */
  private Optional<String> missing(
      String node, String kubeletVersion, String bootId, Instant switchedAt) {
    Optional<NodeReadiness> found;
    try {
      found = check.cluster().readiness(node);
    } catch (IOException e) {
      return Optional.of("API server unreachable during the wait (" + e.getMessage() + ")");
    }
    if (found.isEmpty()) {
      return Optional.of("the Node " + node + " does not exist");
    }
    NodeReadiness r = found.get();
    if (!sameVersion(r.kubeletVersion(), kubeletVersion)) {
      return Optional.of("the Node " + node + " reports kubelet "
          + (r.kubeletVersion().isEmpty() ? "(none)" : r.kubeletVersion()) + ", not the target's "
          + VersionSkew.withV(kubeletVersion));
    }
    if (!bootId.isEmpty() && !bootId.equals(r.bootId())) {
      return Optional.of("the Node " + node + " reports boot id "
          + (r.bootId().isEmpty() ? "(none)" : r.bootId()) + ", not this boot's " + bootId);
    }
    if (r.ready() != NodeReadiness.Status.TRUE) {
      return Optional.of("the Node " + node + "'s Ready condition is "
          + switch (r.ready()) {
            case FALSE -> "False";
            case UNKNOWN -> "Unknown";
            case TRUE -> "True";
          }
          + (r.readyReason().isEmpty() ? "" : " (" + r.readyReason() + ")"));
    }
    Optional<Instant> beat = r.lastHeartbeat();
    if (beat.isEmpty() || !beat.get().isAfter(switchedAt)) {
      return Optional.of("the Node " + node + " has no heartbeat newer than the switch at "
          + switchedAt + beat.map(b -> " (last " + b + ")").orElse(""));
    }
    return Optional.empty();
  }

  /** This boot's id; {@code ""} (not checked) when the host cannot say. */
  private String bootId() {
    try {
      return facts.bootId().trim();
    } catch (IOException | RuntimeException e) {
      log.atWarn()
          .addKeyValue("error", e.getMessage())
          .log("cannot read this boot's id; the Node's boot id is not checked");
      return "";
    }
  }

  /** Whether kubelet's reported version is {@code target} ({@code v} and build metadata aside). */
  static boolean sameVersion(String reported, String target) {
    String r = strip(reported);
    String t = strip(target);
    return !r.isEmpty() && r.equals(t);
  }

  private static String strip(String version) {
    String v = version.trim();
    if (v.startsWith("v")) {
      v = v.substring(1);
    }
    int plus = v.indexOf('+');
    return plus < 0 ? v : v.substring(0, plus);
  }

  /** {@code d} as {@code 5m} or {@code 90s}. */
  public static String describe(Duration d) {
    if (d.toSecondsPart() == 0 && d.toMinutes() > 0) {
      return d.toMinutes() + "m";
    }
    return d.toSeconds() + "s";
  }
}
