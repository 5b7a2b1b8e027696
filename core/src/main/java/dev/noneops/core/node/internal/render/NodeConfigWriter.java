package dev.noneops.core.node.internal.render;

import dev.noneops.core.config.AgentConfig.KubeletAuth;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.goalstate.NodeStart;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.NodeException;
import dev.noneops.core.node.internal.files.OwnedEntry;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.core.node.internal.version.Manifest;
import dev.noneops.core.node.internal.version.VersionVerifier;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Writes the node's configuration at the shared host paths, family by family, through the
 * {@link SharedFileWriter} (so only what differs is written, and all of it is recorded as this
 * node's). Each method reports whether its family changed, and {@link #unitsChanged()} whether a
 * unit or drop-in changed (systemd must then reload).
 */
public final class NodeConfigWriter {
  public static final String COREFILE = "Corefile";
  public static final int UNIT_MODE = 0644;
  public static final int CONFIG_MODE = 0644;
  public static final int SECRET_MODE = 0600;

  private final SharedFileWriter writer;
  private final HostPaths paths;
  private final Layout layout;
  private final VersionVerifier verifier;
  private boolean unitsChanged;

  public NodeConfigWriter(
      SharedFileWriter writer, HostPaths paths, Layout layout, VersionVerifier verifier) {
    this.writer = writer;
    this.paths = paths;
    this.layout = layout;
    this.verifier = verifier;
  }

  /** Whether any unit or drop-in was written since this writer was created. */
  public boolean unitsChanged() {
    return unitsChanged;
  }

  public Path corefile() {
    return paths.localDnsConfigDir().resolve(COREFILE);
  }

  /** The three units and kubelet's drop-ins; true when any changed. */
  public boolean writeUnits(MachineGoalState goal) throws IOException {
    NodeStart start = goal.nodeStart();
    boolean changed = unit(
        paths.unit(HostPaths.LOCALDNS_UNIT), StackUnits.localDns(start.localDns(), corefile()));
    changed |= unit(
        paths.unit(HostPaths.CONTAINERD_UNIT),
        StackUnits.containerd(start.containerd(), paths.containerdConfig()));
    changed |= kubeletUnits(goal);
    return changed;
  }

  /** containerd's config, the NVIDIA drop-in (or its removal) and its unit. */
  public boolean writeContainerd(MachineGoalState goal) throws IOException {
    NodeStart start = goal.nodeStart();
    boolean changed = writer.write(
        paths.containerdConfig(), ContainerdConfigRenderer.config(start.containerd()), CONFIG_MODE);
    Path nvidia = paths.containerdConfDir().resolve(ContainerdConfigRenderer.NVIDIA_DROP_IN);
    if (start.containerd().nvidiaRuntime()) {
      changed |= writer.write(nvidia, ContainerdConfigRenderer.nvidiaDropIn(), CONFIG_MODE);
    } else {
      changed |= writer.removeOwned(nvidia);
    }
    changed |= unit(
        paths.unit(HostPaths.CONTAINERD_UNIT),
        StackUnits.containerd(start.containerd(), paths.containerdConfig()));
    return changed;
  }

  /** kubelet's unit, drop-ins, CA, kubeconfig and static-pod directory. */
  public boolean writeKubelet(MachineGoalState goal) throws IOException {
    var kubelet = goal.nodeStart().kubelet();
    byte[] ca = kubelet.caCertPem();
    if (ca.length == 0) {
      throw new NodeException(
          "the cluster CA certificate is empty; refusing to write " + paths.apiServerCaCert());
    }
    boolean changed = writer.write(paths.apiServerCaCert(), ca, CONFIG_MODE);
    writer.ensureDirectory(paths.manifestsDir(), 0700);
    writer.ensureDirectory(paths.kubeletDir(), 0750);
    KubeconfigRenderer.Kubeconfig kubeconfig = KubeconfigRenderer.render(kubelet, paths);
    changed |= writer.write(kubeconfig.path(), kubeconfig.content(), SECRET_MODE, 0750);
    if (!(kubelet.auth() instanceof KubeletAuth.BootstrapToken)) {
      changed |= writer.removeOwned(paths.bootstrapKubeconfig());
    }
    changed |= kubeletUnits(goal);
    return changed;
  }

  /** LocalDNS's Corefile and unit. */
  public boolean writeLocalDns(MachineGoalState goal) throws IOException {
    var dns = goal.nodeStart().localDns();
    boolean changed = writer.write(corefile(), CorefileRenderer.render(dns), CONFIG_MODE);
    changed |= unit(paths.unit(HostPaths.LOCALDNS_UNIT), StackUnits.localDns(dns, corefile()));
    return changed;
  }

  /**
   * The sysctl presets kept current ({@link #keepSysctlCurrent}) and the {@code /opt/cni/bin}
   * links of the goal's version.
   */
  public boolean writeHost(MachineGoalState goal) throws IOException {
    boolean changed = keepSysctlCurrent();
    changed |= writeCniLinks(goal.rootFs().versionName());
    return changed;
  }

  /**
   * The sysctl presets, rewritten only when the node's kernel tuning wrote them before (the
   * ownership record lists the file): a node bootstrapped to leave the kernel alone never gets a
   * preset that the next boot's systemd-sysctl would apply.
   */
  public boolean keepSysctlCurrent() throws IOException {
    return writer.record().owns(paths.sysctlFile()) && writeSysctl();
  }

  /** The sysctl presets, what the node's kernel tuning writes. */
  public boolean writeSysctl() throws IOException {
    return writer.write(paths.sysctlFile(), HostTuningRenderer.sysctl(), CONFIG_MODE);
  }

  /** {@code ModulesLoadPath}. */
  public boolean writeModulesLoad() throws IOException {
    return writer.write(paths.modulesLoadFile(), HostTuningRenderer.modulesLoad(), CONFIG_MODE);
  }

  /**
   * One link per CNI plugin (executable) of {@code version}; links this node made for plugins no
   * longer there are removed. Documentation files shipped beside the plugins get no link.
   */
  public boolean writeCniLinks(String version) throws IOException {
    Manifest manifest = verifier
        .manifest(version)
        .orElseThrow(() ->
            new NodeException("version " + version + " is not installed (no valid manifest in "
                + layout.versionDir(version) + "); prepare it before writing the CNI links"));
    String prefix = Layout.CNI + "/";
    List<String> plugins = new ArrayList<>();
    for (Manifest.Entry e : manifest.files()) {
      if (e.path().startsWith(prefix)
          && e.path().indexOf('/', prefix.length()) < 0
          && e.mode() == 0755) {
        plugins.add(e.path().substring(prefix.length()));
      }
    }
    SortedMap<String, String> plan = CniLinks.plan(plugins, layout);
    boolean changed = false;
    for (Map.Entry<String, String> link : plan.entrySet()) {
      changed |= writer.link(paths.cniBinDir().resolve(link.getKey()), link.getValue());
    }
    for (OwnedEntry owned : writer.record().entries()) {
      if (owned.kind() == OwnedEntry.Kind.SYMLINK
          && paths.cniBinDir().equals(owned.path().getParent())
          && !plan.containsKey(String.valueOf(owned.path().getFileName()))) {
        changed |= writer.removeOwned(owned.path());
      }
    }
    return changed;
  }

  private boolean kubeletUnits(MachineGoalState goal) throws IOException {
    var kubelet = goal.nodeStart().kubelet();
    boolean changed = unit(
        paths.unit(HostPaths.KUBELET_UNIT),
        StackUnits.kubelet(kubelet, goal.nodeStart().localDns(), paths));
    for (Map.Entry<String, byte[]> dropIn :
        StackUnits.kubeletDropIns(kubelet, paths).entrySet()) {
      changed |= unit(paths.kubeletDropInDir().resolve(dropIn.getKey()), dropIn.getValue());
    }
    return changed;
  }

  private boolean unit(Path path, byte[] content) throws IOException {
    boolean changed = writer.write(path, content, UNIT_MODE);
    unitsChanged |= changed;
    return changed;
  }
}
