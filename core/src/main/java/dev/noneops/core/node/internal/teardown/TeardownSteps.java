package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.internal.files.PreexistingCniEntries;
import dev.noneops.core.node.internal.stack.NodeEvidence;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.process.ProcessInfo;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The work of the node's {@code Teardown}: its three steps, each returning a {@link TeardownLog}
 * of what it removed and kept, and the parts of them an upgrade and a reset run on their own
 * (ending the pods, cleaning the CNI state, removing a tree, removing what a refused bootstrap
 * left). Every step holds the node lock while the layout exists.
 */
public final class TeardownSteps {
  private final HostPorts ports;

  private final Layout layout;
  private final HostPaths paths;
  private final TeardownOptions settings;
  private final Logger log;
  private final NodeLock lock;
  private final LayoutRemoval layoutRemoval;

  /** A teardown with default settings, logging to this class's logger. */
  public TeardownSteps(HostPorts ports, Layout layout, HostPaths paths) {
    this(
        ports,
        layout,
        paths,
        TeardownOptions.defaults(),
        LoggerFactory.getLogger("dev.noneops.core.node.Teardown"));
  }

  public TeardownSteps(
      HostPorts ports, Layout layout, HostPaths paths, TeardownOptions settings, Logger log) {
    this(
        ports,
        layout,
        paths,
        settings,
        log,
        new NodeLock(Objects.requireNonNull(ports, "ports").files(), layout));
  }

  /**
   * A teardown that serialises through {@code lock}: pass the {@link NodeLock} of the node in the
   * same process, so a teardown run while it holds the lock re-enters it instead of being refused.
   */
  public TeardownSteps(
      HostPorts ports,
      Layout layout,
      HostPaths paths,
      TeardownOptions settings,
      Logger log,
      NodeLock lock) {
    this.ports = Objects.requireNonNull(ports, "ports");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.paths = Objects.requireNonNull(paths, "paths");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.log = Objects.requireNonNull(log, "log");
    this.lock = Objects.requireNonNull(lock, "lock");
    this.layoutRemoval = new LayoutRemoval(this.ports.files(), this.layout);
  }

  /** The teardown of the real host: default layout, units in {@code /etc/systemd/system}. */
  public static TeardownSteps forRealHost(HostPorts ports) {
    return new TeardownSteps(ports, Layout.defaultLayout(), HostPaths.realHost());
  }

  /**
   * Whether this node installed itself on the host: a unit or drop-in carrying the marker, its
   * ownership record or applied configuration, the {@code current} link, an upgrade journal or
   * saved configuration, or a version with a valid manifest. A lock file or an empty layout is no
   * evidence (a bootstrap stopped before it installed anything leaves them), so a host whose
   * kubelet and containerd are someone else's never has its data directories taken for this
   * node's. Works after the applied config is gone.
   */
  public boolean present() throws IOException {
    return new NodeEvidence(ports.files(), layout, paths).any();
  }

  /**
   * On a host where no node is {@linkplain #present() present}: removes what a bootstrap leaves
   * in the layout when it stopped before it installed anything — the lock file, the staging
   * directory and then the layout directory once empty. Anything else in the layout is kept and
   * reported; nothing outside it is touched. Does nothing when a node is present. Holds the
   * node lock, so it never races a bootstrap still installing (that one is "busy").
   */
  public TeardownLog removeBootstrapLeftovers() throws IOException, InterruptedException {
    if (present() || !ports.files().exists(layout.root())) {
      return TeardownLog.empty();
    }
    return locked("remove what a bootstrap left", report -> {
      try {
        if (present()) {
          return;
        }
        treeRemover().remove(List.of(layout.staging()), true, report);
        List<Path> createdParents = layoutRemoval.createdParents(report);
        if (ports.files().exists(layout.createdParents())) {
          ports.files().removeDurably(layout.createdParents());
        }
        if (ports.files().lstat(layout.lock()).map(FileMeta::isRegularFile).orElse(false)) {
          ports.files().removeDurably(layout.lock());
          report.removed(
              TeardownAction.CONFIG_FILE_REMOVED,
              layout.lock(),
              "the node lock of a bootstrap that installed nothing");
        }
        List<String> rest = ports.files().list(layout.root());
        if (rest.isEmpty()) {
          ports.files().removeDurably(layout.root());
          report.removed(
              TeardownAction.DIRECTORY_REMOVED,
              layout.root(),
              "empty layout of a bootstrap that installed nothing");
          layoutRemoval.removeEmptyParents(createdParents, report);
        } else {
          report.kept(
              KeepReason.HOLDS_KEPT_ENTRIES,
              layout.root(),
              "holds entries with no evidence of this node: " + String.join(", ", rest));
        }
      } catch (IOException e) {
        if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
          report.failed(layout.root(), "remove", e);
        }
      }
    });
  }

  /** Stops this node's units (kubelet, containerd, LocalDNS, in that order); touches no file. */
  public TeardownLog stop() throws InterruptedException {
    return locked("stop the node", report -> units().stop(report));
  }

  /**
   * Removes the configuration this node wrote at the shared host paths: its units and drop-ins
   * (stopped and disabled first, then systemd reloaded), the agent's state and run-time directory,
   * the recorded shared files that still have the recorded content, the directories it created
   * once empty, and the ownership record.
   */
  public TeardownLog removeConfig() throws InterruptedException {
    return locked("remove the node's configuration", report -> {
      if (!layoutRemoval.markStarted(report)) {
        return;
      }
      units().remove(report);
      removeAgentState(report);
      new AgentMetricsFile(ports.files(), paths.agentMetricsTextfile()).remove(report);
      // the stopped daemon's run-time directory (its socket, or one a killed daemon left)
      treeRemover().remove(List.of(paths.agentRunDir()), true, report);
      new OwnedConfigRemover(ports.files(), paths, layout, dataDirs()).remove(report);
    });
  }

  /** The agent's state file: only the agent writes it, in the agent's own directory. */
  private void removeAgentState(ReportBuilder report) {
    try {
      if (ports.files().lstat(paths.agentState()).map(FileMeta::isRegularFile).orElse(false)) {
        ports.files().removeDurably(paths.agentState());
        report.removed(
            TeardownAction.CONFIG_FILE_REMOVED,
            paths.agentState(),
            "the agent's state, written by the agent");
      }
    } catch (IOException e) {
      report.failed(paths.agentState(), "remove the agent's state", e);
    }
  }

  /**
   * Removes the node: its units (stopped, disabled, removed, systemd reloaded), its container
   * shims, the pods' cgroups, the data directories (after unmounting what pods left mounted below
   * them) and finally the layout with every version. While anything of the node had to be kept
   * (a mount that would not unmount, a process that would not die), the layout directory itself
   * stays so that {@link #present()} still finds the node and the teardown can be run again.
   */
  public TeardownLog destroy() throws InterruptedException {
    return locked("destroy the node", report -> {
      if (!layoutRemoval.markStarted(report)) {
        return;
      }
      units().remove(report);
      ShimIdentity identity = new ShimIdentity(containerdAddress(), layout.root());
      List<ProcessInfo> foreignShims =
          new ShimReaper(ports.processes(), ports.clock(), identity, settings).reap(report);
      new PodCgroupKiller(
              ports.cgroups(), ports.processes(), ports.systemd(), ports.clock(), paths, settings)
          .killAndRemove(report);
      SafeTreeRemover remover = treeRemover();
      OtherRuntimes others = new OtherRuntimes(ports.files(), layout, paths);
      boolean keepContainerdData = others.containerdDataOfOtherNamespaces(report);
      remover.remove(
          dataDirs().stream()
              .filter(d -> !d.equals(paths.containerdRunDir()))
              .filter(d -> !(keepContainerdData && d.equals(paths.containerdStateDir())))
              .toList(),
          true,
          report);
      others.removeRunDir(foreignShims, remover, report);
      cniStateCleaner().clean(true, report);
      LayoutUsedByForeignShims.Used used = others.layoutUsedBy(foreignShims, report);
      if (!used.keeps(layout.current())) {
        layoutRemoval.removeCurrentLink(report);
      }
      remover.remove(
          layoutRemoval.layoutEntriesButTheNote(report).stream()
              .filter(entry -> !used.keeps(entry))
              .toList(),
          true,
          report);
      if (report.hasBlocking()) {
        report.kept(
            KeepReason.HOLDS_KEPT_ENTRIES,
            layout.root(),
            "the layout directory and its teardown note stay while part of the node is left, so the teardown can be run again");
      } else {
        List<Path> createdParents = layoutRemoval.createdParents(report);
        remover.remove(List.of(layout.root()), true, report);
        layoutRemoval.removeEmptyParents(createdParents, report);
      }
    });
  }

  /**
   * Ends this node's pods and keeps everything else: the container shims it identifies as its own
   * (foreign ones, such as a Docker's on the same containerd, are kept and reported) and the
   * processes in the pod cgroups, whose hierarchy stays for the stack's next start. For a caller
   * that holds the node lock already, such as an upgrade between stopping and starting the stack:
   * it takes no lock itself.
   */
  public TeardownLog endPods() throws InterruptedException {
    ReportBuilder report = new ReportBuilder(log);
    ShimIdentity identity = new ShimIdentity(containerdAddress(), layout.root());
    new ShimReaper(ports.processes(), ports.clock(), identity, settings).reap(report);
    new PodCgroupKiller(
            ports.cgroups(), ports.processes(), ports.systemd(), ports.clock(), paths, settings)
        .kill(report);
    return report.build();
  }

  /** {@link #stop()}, {@link #removeConfig()} and {@link #destroy()} in the reset order. */
  public TeardownLog removeAll() throws InterruptedException {
    return stop().plus(removeConfig()).plus(destroy());
  }

  /**
   * Removes what the node's pods left in {@code /etc/cni/net.d} and {@code /var/lib/cni}, keeping
   * every entry that was there before the node came and both directories: the upgrade's and the
   * rollback's clean-up, as a repave does. For a caller that holds the node lock already.
   */
  public TeardownLog cleanCniState() throws InterruptedException {
    ReportBuilder report = new ReportBuilder(log);
    cniStateCleaner().clean(false, report);
    return report.build();
  }

  private CniStateCleaner cniStateCleaner() {
    return new CniStateCleaner(
        ports.files(),
        paths,
        new PreexistingCniEntries(ports.files(), paths, layout),
        treeRemover());
  }

  /** The mount-safe tree remover this teardown deletes with, for other callers (pruning). */
  public SafeTreeRemover treeRemover() {
    return new SafeTreeRemover(ports.files(), ports.mounts(), ports.clock(), settings, log);
  }

  /**
   * Removes {@code dir} through the mount-safe remover and returns what was left in place and
   * why (empty when the tree is gone). Shaped to serve as the upgrade package's {@code
   * TreeRemover}.
   */
  public List<String> removeTree(Path dir) throws IOException {
    try {
      TeardownLog report = treeRemover().remove(List.of(dir));
      return report.kept().stream().map(TeardownLog.Keep::toString).toList();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while removing " + dir);
    }
  }

  /** Whether {@code error} (or a cause) says a directory could not be removed because it has entries. */
  public static boolean isNotEmpty(Throwable error) {
    return HostIOException.hasErrno(error, Errno.ENOTEMPTY);
  }

  /**
   * The data directories destroy removes whole, below the host root: kubelet's, containerd's state
   * and run directories. The CNI configuration and state ({@code /etc/cni/net.d}, {@code
   * /var/lib/cni}: host-local's address reservations, cached results, which a later node would
   * otherwise find taken) are shared with whatever was on the host before the node: destroy
   * removes what the node's pods added there and keeps every entry that was there before.
   */
  public List<Path> dataDirs() {
    return List.of(paths.kubeletDir(), paths.containerdStateDir(), paths.containerdRunDir());
  }

  /** This node's containerd socket, which its shims carry as {@code -address}. */
  public Path containerdAddress() {
    return paths.containerdRunDir().resolve("containerd.sock");
  }

  private UnitTeardown units() {
    return new UnitTeardown(ports.files(), ports.systemd(), paths, settings);
  }

  @FunctionalInterface
  private interface Step {
    void run(ReportBuilder report) throws InterruptedException;
  }

  /**
   * Runs {@code step} holding the node lock when the layout exists (so it never races an upgrade);
   * without a layout there is nothing to serialise against and creating one would leave a trace.
   */
  private TeardownLog locked(String operation, Step step) throws InterruptedException {
    ReportBuilder report = new ReportBuilder(log);
    NodeLock.Hold hold = null;
    try {
      if (ports.files().exists(layout.root())) {
        hold = lock.acquire(operation);
      }
    } catch (IOException e) {
      report.failed(layout.lock(), "lock the node", e);
      return report.build();
    }
    try {
      step.run(report);
    } finally {
      if (hold != null) {
        hold.close();
      }
    }
    return report.build();
  }
}
