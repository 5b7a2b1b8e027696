package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.state.UpgradeJournal;
import dev.noneops.core.node.internal.state.UpgradeRecord;
import dev.noneops.core.node.internal.upgrade.VersionPruner;
import dev.noneops.core.node.internal.version.CurrentLink;
import dev.noneops.core.node.internal.version.DiskUsage;
import dev.noneops.core.node.internal.version.InvalidCurrentLinkException;
import dev.noneops.core.node.internal.version.Manifest;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The read-only views of a node ({@link Node#inspect()}): its status, its launch check, its
 * installed versions and their verification. None takes the lock or needs a configuration; each
 * reads the layout and the host as they are at the call.
 */
public final class NodeInspection {
  private final HostFiles files;
  private final Layout layout;
  private final PhaseContext parts;
  private final VersionPruner pruner;

  NodeInspection(PhaseContext parts, VersionPruner pruner) {
    this.parts = parts;
    this.files = parts.ports().files();
    this.layout = parts.layout();
    this.pruner = pruner;
  }

  /**
   * What an operator asks first: the active and installed versions with their sizes, each stack
   * unit's state, the pods, an upgrade in flight, the applied configuration and the agent.
   */
  public NodeStatus status() {
    return read("status", () -> readStatus());
  }

  private NodeStatus readStatus() throws IOException {
    List<String> needsRoot = new ArrayList<>();
    AppliedConfigStore appliedStore = new AppliedConfigStore(files, parts.paths());
    Optional<AgentConfig> applied = orNeedsRoot(
        needsRoot,
        NodeStatus.APPLIED_CONFIGURATION + " (" + appliedStore.path() + ")",
        appliedStore::read,
        Optional.empty());
    Optional<String> active = activeLinkTarget();
    List<String> installed = new ArrayList<>(orNeedsRoot(
        needsRoot,
        "the installed versions (" + layout.root() + ")",
        pruner::installedVersions,
        List.of()));
    Map<String, NodeStatus.Unit> units = new LinkedHashMap<>();
    String systemdError = null;
    boolean running = true;
    Systemd systemd = parts.ports().systemd();
    NodeStatus.Unit agent = null;
    NodeStatus.Unit gate = null;
    try {
      for (String unit : HostPaths.STACK_UNITS) {
        UnitStatus s = systemd.status(unit);
        units.put(unit, unitOf(s));
        running &= s.isActive();
      }
      agent = unitOf(systemd.status(HostPaths.AGENT_UNIT));
      gate = unitOf(systemd.status(HostPaths.RECOVERY_GATE_UNIT));
    } catch (SystemdException e) {
      systemdError = e.getMessage();
      running = false;
    }
    Optional<UpgradeRecord> journal = orNeedsRoot(
        needsRoot,
        "an upgrade in flight (" + layout.journal() + ")",
        () -> new UpgradeJournal(files, layout).read(),
        Optional.empty());
    List<NodeStatus.VersionSize> sizes = orNeedsRoot(
        needsRoot,
        "the versions' sizes",
        () -> sizes(installed, active.map(a -> a.replaceAll("/+$", ""))),
        List.of());
    List<NodeStatus.Disowned> disowned = orNeedsRoot(
        needsRoot,
        "the paths the node disowned (" + parts.paths().ownershipRecord().getParent() + ")",
        () -> parts.ownership().disowned().stream()
            .map(d -> new NodeStatus.Disowned(d.path().toString(), d.found()))
            .toList(),
        List.of());
    // the agent's state is read by the caller (and empty when unreadable): say when root can
    orNeedsRoot(
        needsRoot,
        "what the agent last did (" + parts.paths().agentState() + ")",
        () -> files.exists(parts.paths().agentState())
            ? Optional.of(files.read(parts.paths().agentState()))
            : Optional.empty(),
        Optional.empty());
    return new NodeStatus(
        active.isPresent() || !installed.isEmpty(),
        active.map(a -> a.replaceAll("/+$", "")).orElse(null),
        installed,
        running,
        units,
        systemdError,
        journal
            .map(j -> new NodeStatus.UpgradeInFlight(
                j.previousVersion(), j.targetVersion(), j.startedAt().toString()))
            .orElse(null),
        applied.isPresent(),
        applied.map(AgentConfig::machineName).orElse(null),
        sizes,
        podCounter().count(containerdActive(units)),
        agent,
        gate,
        disowned,
        needsRoot);
  }

  /** A read of the status that may need root. */
  @FunctionalInterface
  private interface StatusRead<T> {
    T read() throws IOException;
  }

  /**
   * {@code read}'s value, or {@code otherwise} with {@code what} added to {@code needsRoot} when
   * this process may not read it (EACCES: it does not run as root).
   */
  private static <T> T orNeedsRoot(
      List<String> needsRoot, String what, StatusRead<T> read, T otherwise) throws IOException {
    try {
      return read.read();
    } catch (IOException | RuntimeException e) {
      if (HostIOException.hasErrno(e, Errno.EACCES)) {
        needsRoot.add(what);
        return otherwise;
      }
      throw e;
    }
  }

  private static NodeStatus.Unit unitOf(UnitStatus s) {
    return new NodeStatus.Unit(
        s.load().name().toLowerCase(Locale.ROOT),
        s.active().name().toLowerCase(Locale.ROOT),
        s.sub(),
        s.mainPid(),
        s.isActive() ? s.activeEnteredAt().map(Instant::toString).orElse(null) : null);
  }

  private static boolean containerdActive(Map<String, NodeStatus.Unit> units) {
    NodeStatus.Unit containerd = units.get(HostPaths.CONTAINERD_UNIT);
    return containerd != null
        && (containerd.active().equals("active") || containerd.active().equals("reloading"));
  }

  private PodCounter podCounter() {
    return new PodCounter(
        parts.ports().commands(),
        parts.ports().clock(),
        layout.currentBin().resolve("ctr"),
        parts.paths().containerdRunDir().resolve("containerd.sock"));
  }

  /** Each version's size: from its manifest when it is complete (no walk), else from the disk. */
  private List<NodeStatus.VersionSize> sizes(List<String> versions, Optional<String> active)
      throws IOException {
    List<NodeStatus.VersionSize> sizes = new ArrayList<>();
    for (String v : versions) {
      DiskUsage usage = usage(v);
      sizes.add(new NodeStatus.VersionSize(
          v, active.isPresent() && active.get().equals(v), usage.bytes(), usage.files()));
    }
    return sizes;
  }

  private DiskUsage usage(String version) throws IOException {
    Optional<Manifest> manifest = parts.verifier().manifest(version);
    return manifest.isPresent()
        ? new DiskUsage(
            manifest.get().files().size(),
            manifest.get().files().stream().mapToLong(Manifest.Entry::size).sum())
        : DiskUsage.of(files, layout.versionDir(version));
  }

  public LaunchCheckReport launchCheck() {
    return read("launchCheck", () -> readLaunchCheck());
  }

  private LaunchCheckReport readLaunchCheck() throws IOException {
    List<String> problems = new ArrayList<>();
    String version = verifiedActiveVersion(problems);
    try {
      new UpgradeJournal(files, layout)
          .read()
          .ifPresent(j -> problems.add("an upgrade from " + j.previousVersion() + " to "
              + j.targetVersion() + " is in flight (journal " + layout.journal() + ")"));
    } catch (CorruptStateException e) {
      problems.add(e.getMessage());
    }
    try {
      for (String unit : HostPaths.STACK_UNITS) {
        UnitStatus s = parts.ports().systemd().status(unit);
        if (!s.isActive()) {
          problems.add(unit + " is " + s.active().name().toLowerCase(Locale.ROOT) + "/" + s.sub());
        }
      }
    } catch (SystemdException e) {
      problems.add("systemd cannot be asked about the units: " + e.getMessage());
    }
    return new LaunchCheckReport(problems.isEmpty(), version, problems);
  }

  /** The active version, or null with the reason added to {@code problems}; a version that does not verify is a problem too. */
  private String verifiedActiveVersion(List<String> problems) throws IOException {
    try {
      Optional<String> active = new CurrentLink(files, layout).active();
      if (active.isEmpty()) {
        problems.add("no active version: " + layout.current() + " does not exist");
        return null;
      }
      VersionVerifier.Verification v = parts.verifier().verifyTrustingStamps(active.get());
      if (!v.verified()) {
        problems.add("active version " + active.get() + " is not verified: " + v.describe());
      }
      return active.get();
    } catch (InvalidCurrentLinkException e) {
      problems.add(e.getMessage());
      return null;
    }
  }

  public InstalledVersions installedVersions() {
    return read("installedVersions", () -> readInstalledVersions());
  }

  private InstalledVersions readInstalledVersions() throws IOException {
    if (!files.exists(layout.root())) {
      return new InstalledVersions(null, List.of());
    }
    Optional<String> active = activeLinkTarget();
    // without an active version a prune refuses to run, so no version has a reason to be kept
    Map<String, List<String>> references = active.isPresent() ? pruner.references() : Map.of();
    List<InstalledVersions.Version> entries = new ArrayList<>();
    for (String v : pruner.installedVersions()) {
      Optional<Manifest> manifest = parts.verifier().manifest(v);
      DiskUsage usage = usage(v);
      entries.add(new InstalledVersions.Version(
          v,
          active.isPresent() && active.get().equals(v),
          manifest.isPresent(),
          false,
          usage.bytes(),
          usage.files(),
          references.getOrDefault(v, List.of())));
    }
    for (String v : pruner.versionsBeingRemoved()) {
      DiskUsage usage = DiskUsage.of(files, pruner.tombstone(v));
      entries.add(new InstalledVersions.Version(
          v, false, false, true, usage.bytes(), usage.files(), List.of()));
    }
    return new InstalledVersions(active.orElse(null), entries);
  }

  public VerifyReport verify(List<String> versions) {
    return read("verify", () -> readVerify(versions));
  }

  private VerifyReport readVerify(List<String> versions) throws IOException {
    List<String> targets = versions.isEmpty() ? pruner.installedVersions() : versions;
    List<VerifyReport.Verdict> verdicts = new ArrayList<>();
    for (String v : targets) {
      VersionVerifier.Verification result = parts.verifier().verify(v);
      verdicts.add(
          new VerifyReport.Verdict(v, result.state().name(), result.verified(), result.problems()));
    }
    return new VerifyReport(verdicts.stream().allMatch(VerifyReport.Verdict::verified), verdicts);
  }

  /** The upgrade whose journal is on disk, if any. */
  Optional<UpgradeRecord> upgradeInFlight() throws IOException {
    return new UpgradeJournal(files, layout).read();
  }

  /** Where {@code current} points, as written; empty when there is no link. */
  private Optional<String> activeLinkTarget() throws IOException {
    return files.exists(layout.current())
        ? Optional.of(files.readLink(layout.current()))
        : Optional.empty();
  }

  private interface Read<T> {
    T get() throws IOException;
  }

  /** Runs a read of the node's state; a failure to read is a {@link NodeException} naming it. */
  private static <T> T read(String what, Read<T> body) {
    try {
      return body.get();
    } catch (IOException e) {
      throw new NodeException(what + ": cannot read the node's state: " + e.getMessage(), e);
    }
  }
}
