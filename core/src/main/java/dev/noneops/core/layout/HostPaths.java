package dev.noneops.core.layout;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The shared host paths a node writes, the same a containerised node sees, all below a
 * {@code root} prefix ({@code /} on a real host, a temporary tree in tests). The systemd unit
 * directory is configured separately, as the seed's {@code SystemdDir}.
 */
public record HostPaths(Path root, Path systemdDir) {

  /** Marker line every unit and drop-in this node writes starts with. */
  public static final String UNIT_MARKER = "# Managed by unbounded-agent (none)";

  public static final String LOCALDNS_UNIT = "localdns.service";
  public static final String CONTAINERD_UNIT = "containerd.service";
  public static final String KUBELET_UNIT = "kubelet.service";

  /** The stack's units in the order they start: LocalDNS, containerd, kubelet. */
  public static final List<String> STACK_UNITS =
      List.of(LOCALDNS_UNIT, CONTAINERD_UNIT, KUBELET_UNIT);

  /**
   * The recovery gate: a oneshot that finishes an interrupted operation at boot, before the
   * stack's units, which require it and are ordered after it.
   */
  public static final String RECOVERY_GATE_UNIT = "noneops-recover.service";

  /** The agent: {@code noneops daemon}, which keeps the node as its configuration file says. */
  public static final String AGENT_UNIT = "noneops-agent.service";

  /** Where the agent installs its builds, below the root. */
  public static final String AGENT_HOME = "/usr/local/lib/noneops";

  /**
   * Where {@code man} finds the agent's man pages ({@code man noneops-status}): links into the
   * current build's {@code share/man/man1}.
   */
  public static final String AGENT_MAN_DIR = "/usr/local/share/man/man1";

  /** The agent's command on the operator's {@code PATH}, a link into {@link #AGENT_HOME}. */
  public static final String AGENT_COMMAND = "/usr/local/bin/noneops";

  /**
   * The agent's run-time directory (created by its daemon, root's only), which holds the socket
   * its daemon answers {@code status} on; gone at a reboot, removed by a reset.
   */
  public static final String AGENT_RUN_DIR = "/run/noneops";

  /** The textfile collector directory of Debian's {@code prometheus-node-exporter}. */
  public static final String AGENT_METRICS_TEXTFILE_DIR = "/var/lib/prometheus/node-exporter";

  /**
   * The agent's metrics for node_exporter: its daemon writes them (by default) into the textfile
   * collector directory of Debian's {@code prometheus-node-exporter}, a directory the node shares
   * with other collectors; a reset removes this file alone.
   */
  public static final String AGENT_METRICS_TEXTFILE =
      HostPaths.AGENT_METRICS_TEXTFILE_DIR + "/noneops.prom";

  /** The stack's units in the order they stop: {@link #STACK_UNITS} reversed. */
  public static final List<String> STACK_STOP_ORDER = reversed(STACK_UNITS);

  public HostPaths {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(systemdDir, "systemdDir");
    if (!root.isAbsolute() || !systemdDir.isAbsolute()) {
      throw new IllegalArgumentException(
          "host paths must be absolute: " + root + ", " + systemdDir);
    }
  }

  /** The real host: root {@code /}, units in {@code /etc/systemd/system}. */
  public static HostPaths realHost() {
    return new HostPaths(Path.of("/"), Path.of("/etc/systemd/system"));
  }

  /** {@code absolute} (e.g. {@code /etc/containerd/config.toml}) below this root. */
  public Path host(String absolute) {
    if (!absolute.startsWith("/")) {
      throw new IllegalArgumentException("host path must be absolute: " + absolute);
    }
    return root.resolve(absolute.substring(1));
  }

  public Path unit(String name) {
    return systemdDir.resolve(name);
  }

  public Path kubeletDropInDir() {
    return systemdDir.resolve(KUBELET_UNIT + ".d");
  }

  public Path containerdConfig() {
    return host("/etc/containerd/config.toml");
  }

  public Path containerdConfDir() {
    return host("/etc/containerd/conf.d");
  }

  public Path kubeletDir() {
    return host("/var/lib/kubelet");
  }

  public Path bootstrapKubeconfig() {
    return host("/var/lib/kubelet/bootstrap-kubeconfig");
  }

  public Path kubeconfig() {
    return host("/var/lib/kubelet/kubeconfig");
  }

  public Path pkiDir() {
    return host("/etc/kubernetes/pki");
  }

  public Path apiServerCaCert() {
    return host("/etc/kubernetes/pki/apiserver-client-ca.crt");
  }

  public Path manifestsDir() {
    return host("/etc/kubernetes/manifests");
  }

  public Path kubeletDefaults() {
    return host("/etc/default/kubelet");
  }

  public Path cniBinDir() {
    return host("/opt/cni/bin");
  }

  public Path cniConfDir() {
    return host("/etc/cni/net.d");
  }

  public Path containerdRunDir() {
    return host("/run/containerd");
  }

  public Path containerdStateDir() {
    return host("/var/lib/containerd");
  }

  public Path sysctlFile() {
    return host("/etc/sysctl.d/99-kubernetes.conf");
  }

  public Path modulesLoadFile() {
    return host(NodeConstants.MODULES_LOAD_PATH);
  }

  public Path localDnsConfigDir() {
    return host("/etc/unbounded/localdns");
  }

  public Path agentConfigDir() {
    return host(NodeConstants.AGENT_CONFIG_DIR);
  }

  public Path appliedConfig() {
    return agentConfigDir().resolve(NodeConstants.APPLIED_CONFIG_NAME);
  }

  public Path ownershipRecord() {
    return agentConfigDir().resolve(NodeConstants.OWNERSHIP_RECORD_NAME);
  }

  /** The directory of the agent's installed builds. */
  public Path agentHome() {
    return host(AGENT_HOME);
  }

  /** The link naming the agent build the units run. */
  public Path agentCurrent() {
    return agentHome().resolve("current");
  }

  /** The launcher the agent's units run: the current build's {@code bin/noneops}. */
  public Path agentLauncher() {
    return agentCurrent().resolve("bin/noneops");
  }

  /** The directory of the links to the agent's man pages ({@link #AGENT_MAN_DIR}). */
  public Path agentManDir() {
    return host(AGENT_MAN_DIR);
  }

  /** The agent's command link on {@code PATH}. */
  public Path agentCommand() {
    return host(AGENT_COMMAND);
  }

  /** The agent's run-time directory ({@link #AGENT_RUN_DIR}). */
  public Path agentRunDir() {
    return host(AGENT_RUN_DIR);
  }

  /** The socket on which the agent's daemon answers {@code status} for the CLI. */
  public Path agentSocket() {
    return agentRunDir().resolve("daemon.sock");
  }

  /** The agent's state: the last boot recovery, the last operation, quarantined targets. */
  public Path agentState() {
    return agentConfigDir().resolve("agent-state.json");
  }

  /** {@link #AGENT_METRICS_TEXTFILE} on this host. */
  public Path agentMetricsTextfile() {
    return host(AGENT_METRICS_TEXTFILE);
  }

  private static List<String> reversed(List<String> units) {
    List<String> out = new ArrayList<>(units);
    Collections.reverse(out);
    return List.copyOf(out);
  }
}
