package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.internal.files.PreexistingCniEntries;
import dev.noneops.core.node.internal.files.PreexistingLinks;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.render.CniBridges;
import dev.noneops.core.node.internal.render.LocalDnsNetwork;
import dev.noneops.core.node.internal.stack.ForeignStackDetector;
import dev.noneops.core.node.internal.task.Task;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@link Node#reset()} as its task list: stop the agent, stop the stack and end the pods, remove
 * the configuration (originals put back), LocalDNS's interface, the pods' bridges and the applied
 * configuration, then destroy the node; on a host without a node, only what a refused bootstrap
 * left.
 */
final class ResetUseCase {
  private final Node node;
  private final PhaseContext parts;

  ResetUseCase(Node node) {
    this.node = node;
    this.parts = node.parts();
  }

  ResetResult run() {
    return UpgradeParts.call("reset", () -> {
      Teardown teardown = node.teardown();
      if (!teardown.present()) {
        return new ResetResult(
            false, TeardownResult.of(teardown.steps().removeBootstrapLeftovers()), List.of());
      }
      stopAgent();
      AppliedConfigStore applied = new AppliedConfigStore(parts.ports().files(), parts.paths());
      String dnsInterface = applied
          .read()
          .map(c -> c.normalized().localDns().interfaceName())
          .orElse(AgentConfig.DEFAULT_LOCALDNS_INTERFACE);
      List<String> named = CniBridges.named(
          parts.ports().files(), parts.paths().cniConfDir(), cniEntriesBeforeOrNone());
      TeardownResult hostsLinks = linksFromBefore(named);
      List<String> bridges = named.stream()
          .filter(
              b -> hostsLinks.kept().stream().noneMatch(k -> k.subject().equals(linkSubject(b))))
          .toList();
      TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(hostsLinks);
      List<String> hostCleanup = new ArrayList<>(removeLocalDnsInterface(dnsInterface));
      hostCleanup.addAll(removeCniBridges(bridges));
      applied.remove();
      return new ResetResult(true, report.plus(teardown.destroy()), hostCleanup);
    });
  }

  /**
   * Stops the agent's daemon first, before the lock is taken, so that it neither holds the lock
   * nor acts on the node while it is removed (a daemon in an operation finishes it first, within
   * its unit's stop timeout). Only the node's own unit, the one carrying the marker.
   */
  private void stopAgent() throws IOException {
    if (ForeignStackDetector.isNodesUnitFile(
        parts.ports().files(), parts.paths().unit(HostPaths.AGENT_UNIT))) {
      parts.tasks().execute(Task.of("stop-agent", () -> parts.stack().stop(HostPaths.AGENT_UNIT)));
    }
  }

  /**
   * The CNI entries from before the node; none when the record is unreadable, so no bridge is
   * removed (the teardown reports the record itself).
   */
  private Optional<Set<Path>> cniEntriesBeforeOrNone() throws IOException {
    try {
      return new PreexistingCniEntries(parts.ports().files(), parts.paths(), parts.layout()).load();
    } catch (CorruptStateException e) {
      return Optional.empty();
    }
  }

  /**
   * Which of the bridges the node's CNI configuration names were on the host before the node
   * came ({@link PreexistingLinks}), each as kept: the host's, never removed. Without a record (a node
   * provisioned before links were recorded) none is, as before the record existed; an unreadable
   * record keeps every one, as a failure that names the record.
   */
  private TeardownResult linksFromBefore(List<String> bridges) throws IOException {
    Set<String> before;
    KeepReason reason = KeepReason.FROM_BEFORE_THE_NODE;
    String why =
        "a bridge the host had before the node came, which the node's CNI configuration" + " names";
    try {
      Optional<Set<String>> recorded = new PreexistingLinks(
              parts.ports().files(), parts.ports().network(), parts.layout())
          .load();
      if (recorded.isEmpty()) {
        return TeardownResult.empty();
      }
      before = recorded.get();
    } catch (CorruptStateException e) {
      before = Set.copyOf(bridges);
      reason = KeepReason.FAILED;
      why = "not removed: " + e.getMessage();
    }
    List<TeardownResult.Kept> kept = new ArrayList<>();
    for (String bridge : bridges) {
      if (before.contains(bridge)) {
        kept.add(new TeardownResult.Kept(reason, linkSubject(bridge), why));
      }
    }
    return new TeardownResult(List.of(), kept);
  }

  private static String linkSubject(String link) {
    return "link " + link;
  }

  /** Removes the pods' bridges {@link CniBridges} found, now that the stack and its pods are gone. */
  private List<String> removeCniBridges(List<String> bridges) {
    try {
      return CniBridges.remove(parts.ports().network(), bridges).stream()
          .map(name -> "CNI bridge " + name)
          .toList();
    } catch (IOException e) {
      throw new NodeException(
          "cannot remove the pods' bridges " + bridges + ": " + e.getMessage(), e);
    }
  }

  /** Removes LocalDNS's interface when it is there and a dummy one (never another kind of link of that name). */
  private List<String> removeLocalDnsInterface(String name) {
    try {
      return new LocalDnsNetwork(parts.ports().network()).remove(name)
              == LocalDnsNetwork.Removal.REMOVED
          ? List.of("LocalDNS interface " + name)
          : List.of();
    } catch (IOException e) {
      throw new NodeException(
          "cannot remove the LocalDNS interface " + name + ": " + e.getMessage(), e);
    }
  }
}
