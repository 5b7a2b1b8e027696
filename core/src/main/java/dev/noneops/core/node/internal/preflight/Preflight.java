package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.stack.ForeignStackDetector;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.network.Listener;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs every preflight check of a node in order, changing nothing: the host (root, systemd,
 * cgroup v2, kernel modules and sysctls, swap), the ports the stack binds, a stack of the host's
 * own, files at the shared paths, free space, the artifact sources, and the files the agent a bootstrap
 * installs follows as root, and, with cluster credentials, the version skew policy against the
 * API server. A check that cannot look
 * fails, saying why.
 */
public final class Preflight {
  private final List<PreflightCheck> checks;

  private Preflight(List<PreflightCheck> checks) {
    this.checks = List.copyOf(checks);
  }

  /**
   * The checks that need a configuration, which {@link #ofHost} leaves out: LocalDNS's port (its
   * address is the configuration's), the shared files the node would write, the artifact
   * sources and the files the agent would follow.
   */
  public static final List<String> CONFIGURATION_CHECKS =
      List.of("localdns-port", "shared-files", "artifact-sources", AgentFilesCheck.NAME);

  /**
   * The checks that need no configuration, in the order of {@link #of}: the host (root, systemd,
   * cgroup v2, kernel modules and sysctls, swap), kubelet's ports, a stack of the host's own and
   * free space; {@code tuneKernel} as bootstrap is told.
   */
  public static Preflight ofHost(PhaseContext parts, boolean tuneKernel) {
    HostPorts ports = parts.ports();
    List<PreflightCheck> checks = new ArrayList<>(hostChecks(parts, tuneKernel));
    checks.add(new ForeignStackCheck(
        new ForeignStackDetector(ports.files(), ports.systemd(), parts.paths(), parts.layout())));
    checks.add(new FreeSpaceCheck(ports.facts(), parts.layout()));
    return new Preflight(checks);
  }

  private static List<PreflightCheck> hostChecks(PhaseContext parts, boolean tuneKernel) {
    HostPorts ports = parts.ports();
    List<PreflightCheck> checks = new ArrayList<>();
    checks.add(new RootCheck(ports.facts()));
    checks.add(new SystemdCheck(ports.systemd()));
    checks.add(new CgroupCheck(ports.cgroups()));
    checks.add(new KernelModulesCheck(ports.kernel(), tuneKernel));
    checks.add(new SysctlsCheck(ports.kernel(), tuneKernel));
    checks.add(new SwapCheck(ports.facts()));
    checks.add(new PortCheck(
        "kubelet-healthz-port",
        HostPaths.KUBELET_UNIT,
        NodeConstants.KUBELET_HEALTHZ.getHost(),
        NodeConstants.KUBELET_HEALTHZ.getPort(),
        List.of(Listener.TCP),
        parts));
    checks.add(new PortCheck(
        "kubelet-port", HostPaths.KUBELET_UNIT, "0.0.0.0", 10250, List.of(Listener.TCP), parts));
    return checks;
  }

  /** The checks for {@code goal} on this node; {@code tuneKernel} as bootstrap is told. */
  public static Preflight of(
      PhaseContext parts,
      Optional<AgentSetup> agent,
      Supplier<List<Path>> takenOver,
      MachineGoalState goal,
      boolean tuneKernel) {
    HostPorts ports = parts.ports();
    String dnsAddress = goal.nodeStart().localDns().bindAddress();
    List<PreflightCheck> checks = new ArrayList<>(hostChecks(parts, tuneKernel));
    checks.add(new PortCheck(
        "localdns-port",
        HostPaths.LOCALDNS_UNIT,
        dnsAddress,
        53,
        List.of(Listener.UDP, Listener.TCP),
        parts));
    checks.add(new ForeignStackCheck(
        new ForeignStackDetector(ports.files(), ports.systemd(), parts.paths(), parts.layout())));
    checks.add(new SharedFilesCheck(takenOver, parts));
    checks.add(new FreeSpaceCheck(ports.facts(), parts.layout()));
    checks.add(new ArtifactSourcesCheck(ports.downloads(), parts.verifier(), goal));
    agent.ifPresent(
        setup -> checks.add(new AgentFilesCheck(new RootOnlyPath(ports.files()), setup)));
    parts
        .params()
        .cluster()
        .ifPresent(cluster ->
            checks.add(new VersionSkewCheck(cluster, goal.rootFs().versions().kubernetes())));
    return new Preflight(checks);
  }

  public List<CheckOutcome> run() {
    List<CheckOutcome> results = new ArrayList<>();
    for (PreflightCheck check : checks) {
      results.add(runOne(check));
    }
    return List.copyOf(results);
  }

  private static CheckOutcome runOne(PreflightCheck check) {
    try {
      return check.run();
    } catch (IOException | RuntimeException e) {
      return check.fail(
          "could not check: " + e.getMessage(),
          "fix what keeps the check from looking, then run it again");
    }
  }
}
