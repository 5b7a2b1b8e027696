package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.NodeException;
import dev.noneops.core.node.internal.files.OwnedEntry;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.files.PlannedWrites;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.core.node.internal.phases.AgentUnits;
import dev.noneops.core.node.internal.render.LocalDnsNetwork;
import dev.noneops.core.node.internal.render.NodeConfigWriter;
import dev.noneops.core.node.internal.state.UpgradeRecord.LocalDnsInterface;
import dev.noneops.core.node.internal.state.UpgradeSteps;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.systemd.SystemdException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The upgrade steps (docs/concepts/safety.md) over a node's phases, for one pair of goal
 * states: the target and the applied one (what a rollback restores). Configuration is written
 * with the node's own writer; the paths a configuration would write are found by running that
 * same writer over {@link PlannedWrites}, so the saved configuration always covers them.
 */
public final class NodeUpgradeSteps implements UpgradeSteps {

  private final UpgradedNode node;
  private final HostPorts ports;
  private final Supplier<MachineGoalState> target;
  private final Supplier<MachineGoalState> applied;
  private final Supplier<String> targetDigest;
  /** The finding of the last clean-up, until a set-up uses it (they may run on two threads). */
  private final AtomicReference<CleanedInterface> cleaned = new AtomicReference<>();

  public NodeUpgradeSteps(
      UpgradedNode node,
      Supplier<MachineGoalState> target,
      Supplier<MachineGoalState> applied,
      Supplier<String> targetDigest) {
    this.node = Objects.requireNonNull(node, "node");
    this.ports = node.parts().params().ports();
    this.target = Objects.requireNonNull(target, "target");
    this.applied = Objects.requireNonNull(applied, "applied");
    this.targetDigest = Objects.requireNonNull(targetDigest, "targetDigest");
  }

  private MachineGoalState goal(Configuration which) {
    return which == Configuration.TARGET ? target.get() : applied.get();
  }

  @Override
  public String targetVersion() {
    return target.get().rootFs().versionName();
  }

  @Override
  public String targetConfigDigest() {
    return targetDigest.get();
  }

  @Override
  public String targetKubeletVersion() {
    return target.get().rootFs().versions().kubernetes();
  }

  @Override
  public String nodeName() {
    return target.get().rootFs().hostname();
  }

  @Override
  public String prepareTarget() {
    return node.prepareTarget();
  }

  @Override
  public void verifyVersion(String version) throws IOException {
    VersionVerifier.Verification v = node.parts().verifier().verify(version);
    if (!v.verified()) {
      throw new NodeException("cannot roll back to it: " + v.describe());
    }
  }

  @Override
  public void verifyRollbackConfiguration() throws IOException {
    plan(applied.get());
  }

  @Override
  public Set<Path> sharedFiles(Set<Configuration> which) throws IOException {
    Set<Path> out = new TreeSet<>();
    OwnershipStore ownership = node.parts().ownership();
    out.add(ownership.path());
    for (OwnedEntry e : ownership.load().entries()) {
      if (!AgentUnits.isAgentFile(node.parts().paths(), e.path())) {
        out.add(e.path());
      }
    }
    for (Configuration c : which) {
      out.addAll(plan(goal(c)));
    }
    return out;
  }

  /**
   * Every path writing {@code goal}'s configuration would touch, found without writing anything;
   * the list of disowned paths excepted, which is never saved (a rollback does not take a path
   * back from what replaced the node's link).
   */
  private Set<Path> plan(MachineGoalState goal) throws IOException {
    PlannedWrites planned = new PlannedWrites(ports.files());
    OwnershipStore store = new OwnershipStore(planned, node.parts().paths().ownershipRecord());
    NodeConfigWriter writer = new NodeConfigWriter(
        new SharedFileWriter(planned, store),
        node.parts().paths(),
        node.parts().layout(),
        new VersionVerifier(planned, node.parts().layout()));
    writer.writeContainerd(goal);
    writer.writeKubelet(goal);
    writer.writeLocalDns(goal);
    writer.writeHost(goal);
    Set<Path> touched = new TreeSet<>(planned.touched());
    touched.remove(store.disownedPath());
    return touched;
  }

  /** Writes {@code which}'s files and units; its LocalDNS interface is {@link #setUpHostNetworking}'s. */
  @Override
  public void writeConfiguration(Configuration which) {
    node.writeConfiguration(goal(which));
  }

  @Override
  public void reloadUnits() {
    ports.systemd().daemonReload();
  }

  @Override
  public void stopStack() {
    node.stop();
  }

  /**
   * Ends the pods as teardown does (one implementation): this node's shims, identified by its
   * containerd address and namespace or its layout, and the processes in the pod cgroups, which
   * stay for the next start. A Docker's shims on the same containerd survive the upgrade.
   */
  @Override
  public void endPods() throws InterruptedException {
    List<String> left = node.endPods();
    if (!left.isEmpty()) {
      throw new NodeException("the pods did not all end: " + String.join("; ", left));
    }
  }

  @Override
  public LocalDnsInterface localDnsInterface(Configuration which) {
    LocalDnsSpec dns = goal(which).nodeStart().localDns();
    return new LocalDnsInterface(dns.interfaceName(), dns.bindAddress());
  }

  /**
   * Removes the LocalDNS interfaces of the target, of the applied configuration and the one the
   * journal recorded for the target (a recovery's target may be only the applied configuration),
   * each only when it is a dummy interface, except the one {@code setUpNext} wants when it is
   * exactly as wanted already (kept, and remembered for {@link #setUpHostNetworking}); then the CNI
   * configuration and state the node's pods left, keeping every entry that was there before the
   * node came.
   */
  @Override
  public void cleanHostNetworking(
      Optional<LocalDnsInterface> recordedTarget, Configuration setUpNext) throws IOException {
    cleaned.set(null);
    LocalDnsInterface wanted = localDnsInterface(setUpNext);
    Set<String> interfaces = new LinkedHashSet<>();
    interfaces.add(target.get().nodeStart().localDns().interfaceName());
    interfaces.add(applied.get().nodeStart().localDns().interfaceName());
    recordedTarget.ifPresent(dns -> interfaces.add(dns.name()));
    LocalDnsNetwork network = new LocalDnsNetwork(ports.network());
    for (String ifName : interfaces) {
      LocalDnsNetwork.Removal removal;
      if (ifName.equals(wanted.name())) {
        removal = network.keepOrRemove(wanted);
        cleaned.set(new CleanedInterface(wanted, removal));
      } else {
        removal = network.remove(ifName);
      }
      if (removal == LocalDnsNetwork.Removal.NOT_A_DUMMY) {
        node.parts()
            .params()
            .log()
            .atWarn()
            .addKeyValue("interface", ifName)
            .log(
                "a link named like a LocalDNS interface is not a dummy interface; it was left alone");
      }
    }
    List<String> left = new ArrayList<>();
    try {
      left.addAll(node.cleanCniState());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeException("interrupted while cleaning the CNI configuration and state", e);
    }
    if (!left.isEmpty()) {
      throw new NodeException(
          "could not clean the CNI configuration and state: " + String.join("; ", left));
    }
  }

  /**
   * Sets up {@code which}'s LocalDNS interface, using what the clean-up before it found (once):
   * an interface it kept is left as it is, one it removed or found absent is made without being
   * read again; without such a finding (or one about another interface) the link is read first.
   */
  @Override
  public void setUpHostNetworking(Configuration which) throws IOException {
    LocalDnsSpec dns = goal(which).nodeStart().localDns();
    LocalDnsNetwork network = new LocalDnsNetwork(ports.network());
    CleanedInterface found = cleaned.getAndSet(null);
    if (found == null || !found.wanted().equals(localDnsInterface(which))) {
      network.ensure(dns);
      return;
    }
    switch (found.removal()) {
      case KEPT -> {
        // exactly as wanted when the clean-up read it; what runs in between (the flip, writing a
        // configuration) changes no link
      }
      case REMOVED, ABSENT -> network.create(dns);
      case NOT_A_DUMMY -> network.ensure(dns);
    }
  }

  /** What {@link #cleanHostNetworking} found of the interface its set-up-next configuration wants. */
  private record CleanedInterface(LocalDnsInterface wanted, LocalDnsNetwork.Removal removal) {}

  @Override
  public void resetFailed() {
    for (String unit : HostPaths.STACK_UNITS) {
      try {
        ports.systemd().resetFailed(unit);
      } catch (SystemdException e) {
        if (e.kind() != SystemdException.Kind.NO_SUCH_UNIT) {
          throw e;
        }
      }
    }
  }

  /**
   * Starts the stack as the node starts it when it is not running (LocalDNS, containerd, images,
   * kubelet, bounded wait). What starts is decided by the units and configuration on disk, which
   * the steps before wrote for {@code which}; the start sequence itself is the same for both.
   */
  @Override
  public void startStack(Configuration which) {
    node.startStopped();
  }

  @Override
  public boolean running() {
    return node.running();
  }

  /** The layout this node's steps work in. */
  public Layout layout() {
    return node.parts().layout();
  }
}
