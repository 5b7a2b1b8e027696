package dev.noneops.core.daemon;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineStatus;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Repaves the node in place when its Machine asks for it ({@code spec.operations.repaveCounter}
 * above {@code status.operations.repaveCounter}): the desired configuration is the applied one
 * with the spec's version, node labels and taints laid over it (what the spec leaves empty stays
 * as applied), validated first — an invalid one is reported {@code Failed} with every violation and
 * nothing on the host changes; then phase {@code Provisioning} and {@code Repaved} False/Pending,
 * {@code apply} when the version stays or {@code upgradeAndCommit} (which persists the applied
 * configuration, commits and prunes) when it changes, then phase {@code Joining} with {@code
 * Repaved} True/Succeeded. The counter is acknowledged in every outcome but a busy node: a target
 * that rolled back is reported {@code Failed} with the cause and not tried again until the
 * counter is raised again. Each pass reads the Machine afresh, so an event that arrives late or
 * twice changes nothing. Drain and the Node object's removal are not done here.
 */
final class RepaveReconciler {
  /** What one pass did. */
  public enum Outcome {
    /** There is no Machine of the configured name. */
    NO_MACHINE,
    /** No repave is asked. */
    NOTHING_TO_DO,
    /** The desired configuration was invalid: reported Failed, the host untouched. */
    INVALID_SPEC,
    /** The node runs the desired configuration: reported Joining, Repaved True. */
    REPAVED,
    /** The target's upgrade rolled back: reported Failed with the cause. */
    ROLLED_BACK,
    /** Another failure: reported Failed with it. */
    FAILED,
    /** An operation held the node lock: the next pass tries again. */
    BUSY
  }

  private final HostPorts ports;
  private final HostPaths paths;
  private final NodeDaemon.Nodes nodes;
  private final MachineResource machines;
  private final String machineName;
  private final String hostArch;

  public RepaveReconciler(
      HostPorts ports,
      HostPaths paths,
      NodeDaemon.Nodes nodes,
      MachineResource machines,
      String machineName,
      String hostArch) {
    this.ports = Objects.requireNonNull(ports, "ports");
    this.paths = Objects.requireNonNull(paths, "paths");
    this.nodes = Objects.requireNonNull(nodes, "nodes");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.machineName = Objects.requireNonNull(machineName, "machineName");
    this.hostArch = Objects.requireNonNull(hostArch, "hostArch");
  }

  /**
   * One pass over the Machine as it is now.
   *
   * @throws MachineCallException when the Machine cannot be read or its status written
   */
  public Outcome reconcile() {
    Optional<Machine> found = call(() -> machines.get(machineName));
    if (found.isEmpty()) {
      return Outcome.NO_MACHINE;
    }
    Machine machine = found.get();
    long asked = machine.spec().operations().repaveCounter();
    if (asked <= machine.status().operations().repaveCounter()) {
      return Outcome.NOTHING_TO_DO;
    }
    Optional<AgentConfig> applied;
    try {
      applied = new AppliedConfigStore(ports.files(), paths).read();
    } catch (IOException | RuntimeException e) {
      return fail(asked, "NoAppliedConfiguration", "cannot read the applied configuration: " + e);
    }
    if (applied.isEmpty()) {
      return fail(asked, "NoAppliedConfiguration", "no node is installed: bootstrap it first");
    }
    AgentConfig desired = overlay(applied.get(), machine.spec().kubernetes());
    try {
      AgentConfigParser.validate(desired, hostArch);
    } catch (InvalidConfigException e) {
      String all =
          e.violations().stream().map(ConfigViolation::toString).collect(Collectors.joining("; "));
      report(asked, MachinePhase.FAILED, MachineCondition.Status.FALSE, "InvalidSpec", all);
      return Outcome.INVALID_SPEC;
    }
    Node node = nodes.node(Optional.of(desired), applied);
    try {
      Optional<String> active = node.version();
      String wanted = node.goalState().rootFs().versionName();
      String change = active.orElse("(none)") + " → " + wanted;
      status(s -> s.withPhase(MachinePhase.PROVISIONING)
          .withCondition(condition(
              MachineCondition.Status.FALSE, "Pending", "repave " + asked + ": " + change)));
      if (active.isPresent() && active.get().equals(wanted)) {
        node.apply();
      } else {
        node.upgradeAndCommit(new UpgradeOptions(false, true));
      }
      report(asked, MachinePhase.JOINING, MachineCondition.Status.TRUE, "Succeeded", change);
      return Outcome.REPAVED;
    } catch (NodeBusyException busy) {
      return Outcome.BUSY;
    } catch (UpgradeFailedException e) {
      report(
          asked,
          MachinePhase.FAILED,
          MachineCondition.Status.FALSE,
          "RolledBack",
          e.operatorMessage());
      return Outcome.ROLLED_BACK;
    } catch (NoneopsException e) {
      return fail(asked, "Failed", e.operatorMessage());
    }
  }

  /** {@code applied} with what {@code spec} sets: version, node labels, taints. */
  static AgentConfig overlay(AgentConfig applied, KubernetesSpec spec) {
    AgentConfig.Cluster cluster = applied.cluster();
    if (!spec.version().isEmpty()) {
      String version =
          spec.version().startsWith("v") ? spec.version().substring(1) : spec.version();
      cluster = new AgentConfig.Cluster(cluster.caCertBase64(), cluster.clusterDns(), version);
    }
    AgentConfig.Kubelet kubelet = new AgentConfig.Kubelet(
        applied.kubelet().apiServer(),
        applied.kubelet().auth(),
        spec.nodeLabels().isEmpty() ? applied.kubelet().labels() : new TreeMap<>(spec.nodeLabels()),
        spec.registerWithTaints().isEmpty()
            ? applied.kubelet().registerWithTaints()
            : spec.registerWithTaints());
    return new AgentConfig(
        applied.machineName(),
        cluster,
        kubelet,
        applied.cri(),
        applied.cni(),
        applied.ociImage(),
        applied.attest(),
        applied.downloads(),
        applied.localDns());
  }

  private Outcome fail(long asked, String reason, String message) {
    report(asked, MachinePhase.FAILED, MachineCondition.Status.FALSE, reason, message);
    return Outcome.FAILED;
  }

  /** The outcome of repave {@code asked}: phase, the Repaved condition, the counter acknowledged. */
  private void report(
      long asked,
      MachinePhase phase,
      MachineCondition.Status repaved,
      String reason,
      String message) {
    status(s -> s.withPhase(phase)
        .withOperations(
            s.operations().withRepaveCounter(Math.max(asked, s.operations().repaveCounter())))
        .withCondition(condition(repaved, reason, message)));
  }

  private MachineCondition condition(
      MachineCondition.Status status, String reason, String message) {
    return new MachineCondition(
        MachineCondition.REPAVED, status, reason, message, ports.clock().now());
  }

  private void status(UnaryOperator<MachineStatus> change) {
    call(() -> machines.updateStatus(machineName, change));
  }

  private interface Call<T> {
    T run() throws IOException;
  }

  private <T> T call(Call<T> call) {
    try {
      return call.run();
    } catch (IOException e) {
      throw new MachineCallException("Machine " + machineName + ": " + e.getMessage(), e);
    }
  }
}
