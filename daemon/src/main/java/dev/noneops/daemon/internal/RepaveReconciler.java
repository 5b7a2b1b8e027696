package dev.noneops.daemon.internal;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import dev.noneops.core.config.UrlRedaction;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.ApplyResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.systemd.JobResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Repaves the node in place when its Machine asks for it ({@code spec.operations.repaveCounter}
 * above {@code status.operations.repaveCounter}): the desired configuration is the applied one
 * with the spec's version, node labels, taints and agent image laid over it (what the spec leaves empty stays
 * as applied), validated first — an invalid one is reported {@code Failed} with every violation and
 * nothing on the host changes. Then phase {@code Provisioning} and {@code Repaved} False/Pending;
 * the node is drained ({@link NodeDrain}: a drain blocked past its bound is reported {@code Failed}
 * naming the pods, the node uncordoned, the host untouched); its Node object is deleted; {@code
 * apply} when the version stays (kubelet restarted when the apply did not, so that it registers
 * again) or {@code upgradeAndCommit} (which persists the applied configuration, commits and prunes)
 * when it changes; kubelet's new Node object is waited for (bounded) and uncordoned; phase {@code
 * Joining} with {@code Repaved} True/Succeeded. A repave that fails once the Node is deleted brings
 * it back all the same: kubelet registers only when it starts, so one the failure left running is
 * restarted when the Node does not come back by itself. The counter is acknowledged in every outcome but a
 * busy node and a failed call to the API server (the next event tries again): a target that rolled
 * back is reported {@code Failed} with the cause and not tried again until the counter is raised
 * again. Each pass reads the Machine afresh, so an event that arrives late or twice changes
 * nothing, and every step can be run again after a daemon that died in it: cordoning twice,
 * evicting pods that are gone, deleting a deleted Node are no-ops. A node the operator had
 * cordoned before the repave stays cordoned whatever the outcome, also on the Node kubelet
 * registers again: whether it was is recorded on the host ({@link CordonBeforeRepave}) before the
 * drain cordons it, so that a restarted daemon does not take its own cordon for the operator's.
 */
public final class RepaveReconciler {
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
    /** The drain reached its bound: reported Failed naming the pods, the host untouched. */
    DRAIN_BLOCKED,
    /** Kubelet did not register the Node again within its bound: reported Failed. */
    NOT_REGISTERED,
    /** Another failure: reported Failed with it. */
    FAILED,
    /** An operation held the node lock: the next pass tries again. */
    BUSY
  }

  private static final Duration KUBELET_RESTART = Duration.ofSeconds(90);

  private final HostPorts ports;
  private final HostPaths paths;
  private final NodeDaemon.Nodes nodes;
  private final MachineResource machines;
  private final String machineName;
  private final String hostArch;
  private final ClusterNode cluster;
  private final String nodeName;
  private final RepaveOptions timeouts;
  private String lastReport = "";

  public RepaveReconciler(
      HostPorts ports,
      HostPaths paths,
      NodeDaemon.Nodes nodes,
      MachineResource machines,
      String machineName,
      String hostArch,
      ClusterNode cluster,
      String nodeName,
      RepaveOptions timeouts) {
    this.ports = Objects.requireNonNull(ports, "ports");
    this.paths = Objects.requireNonNull(paths, "paths");
    this.nodes = Objects.requireNonNull(nodes, "nodes");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.machineName = Objects.requireNonNull(machineName, "machineName");
    this.hostArch = Objects.requireNonNull(hostArch, "hostArch");
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
  }

  /**
   * One pass over the Machine as it is now.
   *
   * @throws MachineCallException when the Machine cannot be read or its status written
   */
  public Outcome reconcile() {
    Optional<Machine> found = call(() -> machines.get(machineName));
    return found.isEmpty() ? Outcome.NO_MACHINE : reconcile(found.get());
  }

  /** One pass over {@code machine}, as just read. */
  private Outcome reconcile(Machine machine) {
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
    AgentConfig desired = overlay(applied.get(), machine.spec());
    try {
      AgentConfigParser.validate(desired, hostArch);
    } catch (InvalidConfigException e) {
      String all =
          e.violations().stream().map(ConfigViolation::toString).collect(Collectors.joining("; "));
      report(asked, MachinePhase.FAILED, MachineCondition.Status.FALSE, "InvalidSpec", all);
      return Outcome.INVALID_SPEC;
    }
    Node node = nodes.node(Optional.of(desired), applied);
    Optional<String> active;
    String wanted;
    try {
      active = node.version();
      wanted = node.goalState().rootFs().versionName();
    } catch (NoneopsException e) {
      return fail(asked, "Failed", e.operatorMessage());
    }
    String change = active.orElse("(none)") + " → " + wanted;
    boolean cordonedBefore = cordonedBeforeRepave();
    status(s -> s.withPhase(MachinePhase.PROVISIONING)
        .withCondition(condition(
            MachineCondition.Status.FALSE, "Pending", "repave " + asked + ": " + change)));
    try {
      new NodeDrain(cluster, ports.clock(), timeouts).drain(nodeName, cordonedBefore);
    } catch (DrainBlockedException e) {
      report(
          asked,
          MachinePhase.FAILED,
          MachineCondition.Status.FALSE,
          "DrainBlocked",
          e.operatorMessage());
      return Outcome.DRAIN_BLOCKED;
    }
    NodeDrain.call(() -> cluster.deleteNode(nodeName), "delete the Node object " + nodeName);
    try {
      if (active.isPresent() && active.get().equals(wanted)) {
        ApplyResult applyResult = node.apply();
        if (!applyResult.restarted().contains(HostPaths.KUBELET_UNIT)
            && !applyResult.started().contains(HostPaths.KUBELET_UNIT)) {
          // a Node object is registered when kubelet starts: a repave that neither restarted nor
          // started kubelet still makes it register again
          ports.systemd().restart(HostPaths.KUBELET_UNIT, KUBELET_RESTART);
        }
      } else {
        node.upgradeAndCommit(new UpgradeOptions(false, true));
      }
    } catch (NodeBusyException busy) {
      return Outcome.BUSY;
    } catch (UpgradeFailedException e) {
      String rejoined = rejoinAfterFailure();
      report(
          asked,
          MachinePhase.FAILED,
          MachineCondition.Status.FALSE,
          "RolledBack",
          e.operatorMessage() + rejoined);
      return Outcome.ROLLED_BACK;
    } catch (NoneopsException e) {
      String rejoined = rejoinAfterFailure();
      return fail(asked, "Failed", e.operatorMessage() + rejoined);
    }
    if (!rejoin()) {
      report(
          asked,
          MachinePhase.FAILED,
          MachineCondition.Status.FALSE,
          "NotRegistered",
          "the node runs " + wanted + " but kubelet did not register the Node " + nodeName
              + " again within " + timeouts.registration());
      return Outcome.NOT_REGISTERED;
    }
    report(asked, MachinePhase.JOINING, MachineCondition.Status.TRUE, "Succeeded", change);
    return Outcome.REPAVED;
  }

  /**
   * After a restart, before the next pass: a repave this node had in flight ({@code
   * Provisioning}, its counter not acknowledged) whose upgrade the recovery rolled back since the
   * repave began (the daemon's own recovery at start, or the recovery gate at boot, {@code
   * recoveries}) is reported Failed with that rollback, its counter acknowledged, once the node has
   * registered again and been uncordoned; anything else is the pass of {@link #reconcile()}, which
   * finishes the repave (an upgrade the recovery committed is the applied configuration now: the
   * pass applies it and lets the node register again).
   */
  public Outcome reconcileAfterRecovery(List<AgentState.Event> recoveries) {
    Optional<Machine> found = call(() -> machines.get(machineName));
    if (found.isEmpty()) {
      return Outcome.NO_MACHINE;
    }
    Machine machine = found.get();
    long asked = machine.spec().operations().repaveCounter();
    Optional<MachineCondition> pending = machine
        .status()
        .condition(MachineCondition.REPAVED)
        .filter(c -> c.status() == MachineCondition.Status.FALSE && c.reason().equals("Pending"));
    if (asked > machine.status().operations().repaveCounter()
        && machine.status().phase() == MachinePhase.PROVISIONING
        && pending.isPresent()) {
      Optional<AgentState.Event> rolledBack = recoveries.stream()
          .filter(e -> e.outcome().equals("ROLLED_BACK") || e.outcome().equals("ROLLBACK_FINISHED"))
          .filter(e -> !e.at().isBefore(pending.get().lastTransitionTime()))
          .findFirst();
      if (rolledBack.isPresent()) {
        String rejoined = rejoinAfterFailure();
        report(
            asked,
            MachinePhase.FAILED,
            MachineCondition.Status.FALSE,
            "RolledBack",
            "repave " + asked + " was interrupted (the agent stopped during its upgrade) and the"
                + " recovery rolled it back: " + rolledBack.get().detail() + rejoined);
        return Outcome.ROLLED_BACK;
      }
    }
    return reconcile(machine);
  }

  /**
   * {@link #rejoin()} after a repave that failed once the Node was deleted. A failure before the
   * stack was touched (a target that cannot be downloaded) leaves the old kubelet running, and a
   * kubelet registers its Node only when it starts: when the Node has not come back within one
   * {@link RepaveOptions#poll()}, kubelet is restarted (one that a rollback has just started is
   * restarted once more, which costs it nothing).
   *
   * @return "" when the node is registered and uncordoned again, else a sentence saying why not,
   *     to add to the report
   */
  private String rejoinAfterFailure() {
    if (!awaitRegistered(timeouts.poll())) {
      try {
        JobResult restarted = ports.systemd().restart(HostPaths.KUBELET_UNIT, KUBELET_RESTART);
        if (!restarted.succeeded()) {
          return "; kubelet could not be restarted to register the Node " + nodeName
              + " again: its restart job ended " + restarted;
        }
      } catch (RuntimeException e) {
        return "; kubelet could not be restarted to register the Node " + nodeName + " again: "
            + e.getMessage();
      }
    }
    return rejoin()
        ? ""
        : "; kubelet did not register the Node " + nodeName + " again within "
            + timeouts.registration();
  }

  /**
   * Waits until kubelet has registered the Node again, then uncordons it, or cordons it when it
   * was cordoned before the repave (the Node's deletion lost the operator's cordon; the repave puts
   * it back).
   *
   * @return false when it did not register within {@link RepaveOptions#registration()}
   */
  private boolean rejoin() {
    if (!awaitRegistered(timeouts.registration())) {
      return false;
    }
    boolean cordonedBefore = recorded(CordonBeforeRepave::read).orElse(false);
    NodeDrain.call(
        () -> {
          if (cordonedBefore) {
            cluster.cordon(nodeName);
          } else {
            cluster.uncordon(nodeName);
          }
          return null;
        },
        (cordonedBefore ? "cordon " : "uncordon ") + nodeName);
    return true;
  }

  /**
   * Whether the node was cordoned before this repave began: as recorded on the host by the pass
   * that began it (an agent killed mid-repave finds its own cordon on the Node, which is not the
   * operator's), else as the Node is now, recorded before the drain cordons it.
   */
  private boolean cordonedBeforeRepave() {
    Optional<Boolean> recorded = recorded(CordonBeforeRepave::read);
    if (recorded.isPresent()) {
      return recorded.get();
    }
    boolean cordoned = NodeDrain.call(() -> cluster.node(nodeName), "read the Node " + nodeName)
        .map(n -> n.unschedulable())
        .orElse(false);
    recorded(record -> {
      record.write(cordoned);
      return Optional.empty();
    });
    return cordoned;
  }

  private interface RecordCall<T> {
    Optional<T> run(CordonBeforeRepave record) throws IOException;
  }

  private <T> Optional<T> recorded(RecordCall<T> call) {
    try {
      return call.run(new CordonBeforeRepave(ports.files(), paths));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "the record of whether " + nodeName + " was cordoned before the repave: "
              + e.getMessage(),
          e);
    }
  }

  /** @return whether the Node is registered within {@code bound} */
  private boolean awaitRegistered(Duration bound) {
    long deadline = ports.clock().nanoTime() + bound.toNanos();
    while (NodeDrain.call(() -> cluster.node(nodeName), "read the Node " + nodeName)
        .isEmpty()) {
      if (ports.clock().nanoTime() - deadline >= 0) {
        return false;
      }
      try {
        ports.clock().sleep(timeouts.poll());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClusterCallException("interrupted while waiting for " + nodeName, e);
      }
    }
    return true;
  }

  /** The phase, reason and message of the outcome this reconciler last reported; "" before. */
  public String lastReport() {
    return lastReport;
  }

  /**
   * {@code applied} with what {@code machine} sets: version, node labels, taints and the agent's
   * image (which a host-native node records but runs nothing from).
   */
  public static AgentConfig overlay(AgentConfig applied, MachineSpec machine) {
    KubernetesSpec spec = machine.kubernetes();
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
        machine.agent().image().isEmpty() ? applied.ociImage() : machine.agent().image(),
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
    lastReport = phase.word() + " (" + reason + "): " + UrlRedaction.redact(message);
    status(s -> s.withPhase(phase)
        .withOperations(
            s.operations().withRepaveCounter(Math.max(asked, s.operations().repaveCounter())))
        .withCondition(condition(repaved, reason, message)));
    // the repave ended: the next one looks at the Node afresh
    recorded(record -> {
      record.clear();
      return Optional.empty();
    });
  }

  private MachineCondition condition(
      MachineCondition.Status status, String reason, String message) {
    // a condition leaves the host: an artifact's signed URL in a failure must not
    return new MachineCondition(
        MachineCondition.REPAVED,
        status,
        reason,
        UrlRedaction.redact(message),
        ports.clock().now());
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
