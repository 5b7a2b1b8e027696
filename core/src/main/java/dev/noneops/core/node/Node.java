package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.goalstate.GoalStateResolver;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.files.CniEntriesBefore;
import dev.noneops.core.node.internal.files.LinksBefore;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.phases.ActivateVersionPhase;
import dev.noneops.core.node.internal.phases.CheckHostPhase;
import dev.noneops.core.node.internal.phases.ConfigurePhase;
import dev.noneops.core.node.internal.phases.InstallAgentPhase;
import dev.noneops.core.node.internal.phases.InstallVersionPhase;
import dev.noneops.core.node.internal.phases.KernelTuningPhase;
import dev.noneops.core.node.internal.phases.NodeParts;
import dev.noneops.core.node.internal.phases.RestartPhase;
import dev.noneops.core.node.internal.phases.StartPhase;
import dev.noneops.core.node.internal.phases.StopPhase;
import dev.noneops.core.node.internal.phases.WriteUnitsPhase;
import dev.noneops.core.node.internal.preflight.AgentFilesCheck;
import dev.noneops.core.node.internal.preflight.Preflight;
import dev.noneops.core.node.internal.preflight.SysctlsCheck;
import dev.noneops.core.node.internal.render.CniBridges;
import dev.noneops.core.node.internal.render.LocalDnsNetwork;
import dev.noneops.core.node.internal.stack.ForeignStackDetector;
import dev.noneops.core.node.internal.state.UpgradeOwners;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import dev.noneops.core.node.internal.upgrade.NodeUpgradeSteps;
import dev.noneops.core.node.internal.upgrade.Upgrade;
import dev.noneops.core.node.internal.upgrade.UpgradeCommit;
import dev.noneops.core.node.internal.upgrade.UpgradeContext;
import dev.noneops.core.node.internal.upgrade.UpgradeRecovery;
import dev.noneops.core.node.internal.upgrade.UpgradedNode;
import dev.noneops.core.node.internal.upgrade.VersionPruner;
import dev.noneops.core.node.internal.upgrade.VersionSwitch;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.files.FileMeta;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * A none node bound to one configuration: installs its version, writes its configuration at the
 * shared host paths, and starts, restarts and stops its stack (LocalDNS, containerd, kubelet)
 * natively under the host's systemd.
 *
 * <p>Goal-state resolution is lazy: {@link #stop()}, {@link #running()}, {@link #version()} and
 * the backend's stop and status work without a configuration. Every mutating operation holds
 * the node lock ({@link NodeLock}, re-entrant within this process, "busy" for another) and runs
 * as a task: logged and reported as started/completed/failed with its duration. A failure is
 * thrown as the typed error itself ({@link ForeignStackException}, {@link UnitJobException},
 * {@link ReadinessTimeoutException}, {@link dev.noneops.core.node.InstallException},
 * {@link dev.noneops.core.node.NodeBusyException}, ...), every one a
 * {@link NoneopsException} that names the task path where it happened; any other error arrives
 * wrapped once in a {@link dev.noneops.core.node.internal.task.TaskFailedException}.
 *
 * <p>The operations are the seed's ({@link #prepare()}, {@link #provision()}, {@link #configure()},
 * {@link #start(boolean, ConfigureResult)}, {@link #restart()}, {@link #stop()}, {@link #upgrade()},
 * {@link #commit()}, {@link #recoverUpgrade(AgentConfig)}, {@link #pruneVersions()}, ...) plus the
 * use cases built on them ({@link #bootstrap(boolean)}, {@link #apply()},
 * {@link #upgradeAndCommit(UpgradeOptions)}) and {@link #plan()}. Each composes the node's phases
 * (checking the host, installing and activating a version, tuning the kernel, writing units and
 * configuration, starting, restarting and stopping the stack), which share one lock with the
 * node's {@link #teardown()}.
 */
public final class Node {
  private final NodeParts parts;
  private final Params params;
  private final HostPorts ports;
  private final Layout layout;
  private final HostPaths paths;
  private final TaskRunner tasks;
  private final NodeLock lock;
  private MachineGoalState goalState;
  private MachineGoalState previousGoalState;

  public Node(Params params) {
    this.parts = NodeParts.of(Objects.requireNonNull(params, "params"));
    this.params = params;
    this.ports = parts.ports();
    this.layout = parts.layout();
    this.paths = parts.paths();
    this.tasks = parts.tasks();
    this.lock = parts.lock();
    synchronized (this) {
      this.goalState = params.goalState().orElse(null);
      this.previousGoalState = params.previousGoalState().orElse(null);
    }
  }

  /** The parts this node's phases, planner, upgrade steps and backend share. */
  NodeParts parts() {
    return parts;
  }

  /** The agent a bootstrap of this node installs, if any. */
  Optional<AgentSetup> agent() {
    return params.agent();
  }

  /**
   * The resolved goal state with the host-native paths (binaries under {@code current/bin}, CNI
   * under {@code current/libexec/cni}); resolved once, on first use.
   *
   * @throws NotConfiguredException when the node has neither a configuration nor a goal state
   */
  public synchronized MachineGoalState goalState() {
    if (goalState == null) {
      if (params.config().isEmpty()) {
        throw new NotConfiguredException("resolving the goal state");
      }
      goalState = resolve(effectiveConfig().orElseThrow());
    }
    return goalState;
  }

  /**
   * The goal state the node ran with before an upgrade: {@code Params.previousGoalState}, else
   * {@code Params.previous} resolved, else this configuration's.
   */
  synchronized MachineGoalState previousGoalState() {
    if (previousGoalState == null) {
      previousGoalState =
          params.previous().isPresent() ? resolve(params.previous().get()) : goalState();
    }
    return previousGoalState;
  }

  /**
   * This node's configuration with {@code Params.downloads} written into its {@code Downloads}: the
   * configuration it installs, whose digest an upgrade journals, and so the one the caller records
   * as the applied config after a bootstrap or an upgrade. Empty when the node has no configuration.
   */
  public Optional<AgentConfig> effectiveConfig() {
    return params.config().map(params.downloads()::appliedTo);
  }

  /** The goal state of a configuration as it stands (the applied config carries its own downloads). */
  private MachineGoalState resolve(AgentConfig config) {
    try {
      return GoalStateResolver.resolve(config, ports.facts().read(), layout);
    } catch (IOException e) {
      throw new NodeException("read host facts to resolve the goal state: " + e.getMessage(), e);
    }
  }

  /**
   * Makes sure this configuration's version is installed and verified, touching nothing the
   * running node uses. On a host without a node it first refuses a host with a kubelet or
   * containerd of its own, as {@link #bootstrap(boolean)} does, before it creates the layout.
   *
   * @return the root whose slot is the version name
   */
  @SuppressWarnings("try")
  public NodeRoot prepare() {
    return tasks.call("prepare", () -> {
      boolean firstInstall = !ports.files().exists(layout.root());
      if (firstInstall) {
        new CheckHostPhase(parts).run();
      }
      try (NodeLock.Hold hold =
          firstInstall ? lock.acquireCreatingLayout("prepare") : lock.acquire("prepare")) {
        return new InstallVersionPhase(parts).run(goalState());
      }
    });
  }

  /**
   * First install (bootstrap): refuses a host with a kubelet or containerd of its own (changing
   * nothing), then prepares the version, writes the units and points {@code current} at it.
   */
  @SuppressWarnings("try")
  public void provision() {
    tasks.execute(Task.of("provision", () -> {
      new CheckHostPhase(parts).run();
      MachineGoalState goal = goalState();
      try (NodeLock.Hold hold = lock.acquireCreatingLayout("provision")) {
        tasks.execute(Task.of("prepare", () -> new InstallVersionPhase(parts).run(goalState())));
        installUnitsAndActivate(goal);
      }
    }));
  }

  /**
   * The first install of this configuration on a host, in the one order that is safe: the
   * {@link #preflight(boolean)} checks run before anything is written, and a failed one stops it
   * (a refusal leaves the host byte-identical, the layout and its lock included; warnings do not
   * stop it); then, holding the lock, the
   * version is installed and verified (a failure there leaves no trace either), the kernel
   * modules listed and loaded, the units written, the version activated, the configuration
   * written, the sysctl presets written and applied — so kubelet, which runs with {@code
   * --protect-kernel-defaults}, finds them in force — the stack started, and the applied
   * configuration recorded last.
   *
   * @param tuneKernel false for a host whose kernel is not this node's to change (a sandbox, a
   *     container): no module file, no module loaded, no sysctl preset written or applied, then
   *     or by a later configuration (the values kubelet checks are the operator's to set)
   * @throws PreflightFailedException when a preflight check failed (the host runs its own stack,
   *     a port is taken, ...)
   * @throws NotConfiguredException when the node has no configuration to record
   * @throws dev.noneops.core.config.WritableByOthersException when the agent it installs would
   *     follow a configuration file, or run a java, that a user or group other than root can
   *     change (checked first, before anything is written)
   */
  @SuppressWarnings("try")
  public BootstrapResult bootstrap(boolean tuneKernel) {
    AgentConfig config =
        effectiveConfig().orElseThrow(() -> new NotConfiguredException("bootstrapping"));
    return tasks.call("bootstrap", () -> {
      if (params.agent().isPresent()) {
        tasks.execute(
            Task.of("check-agent-files", () -> requireRootOnly(params.agent().get())));
      }
      MachineGoalState goal = goalState();
      PreflightReport preflight = tasks.call("preflight", () -> {
        PreflightReport report = PreflightReport.of(
            Preflight.of(parts, agent(), () -> plan().takenOver(), goal, tuneKernel)
                .run());
        if (!report.passed()) {
          throw new PreflightFailedException(report);
        }
        return report;
      });
      try (NodeLock.Hold hold = lock.acquireCreatingLayout("bootstrap")) {
        prepareOrLeaveNoTrace();
        KernelTuningPhase kernel = new KernelTuningPhase(parts);
        ActivateVersionPhase activate = new ActivateVersionPhase(parts);
        tasks.execute(Task.of(
            "check-version", () -> activate.requireComplete(goal.rootFs().versionName())));
        InstallAgentPhase agent = new InstallAgentPhase(parts);
        boolean agentChanged = params.agent().isPresent()
            && tasks.call("install-agent", () -> agent.run(params.agent().get()));
        if (tuneKernel) {
          tasks.execute(Task.of("load-kernel-modules", kernel::loadModules));
        }
        recordCniEntriesBefore();
        tasks.execute(Task.of("write-units", () -> new WriteUnitsPhase(parts).run(goal)));
        tasks.execute(
            Task.of("activate-version", () -> activate.run(goal.rootFs().versionName())));
        ConfigureResult changes = configure(goal);
        if (tuneKernel) {
          tasks.execute(Task.of("write-sysctls", kernel::writeSysctls));
          tasks.execute(Task.of("apply-sysctls", kernel::applySysctls));
        }
        start(running(), changes);
        recordApplied(config);
        if (params.agent().isPresent()) {
          tasks.execute(Task.of("start-agent", () -> agent.startDaemon(agentChanged)));
        }
        return new BootstrapResult(
            version().orElse(""), changes, running(), warningsLeft(preflight, tuneKernel));
      }
    });
  }

  /**
   * Refuses an agent whose configuration file (which its daemon follows as root) or java (which
   * its launcher runs as root at every boot) a user or group other than root can change.
   */
  private void requireRootOnly(AgentSetup agent) throws IOException {
    AgentFilesCheck.requireRootOnly(new RootOnlyPath(ports.files()), agent);
  }

  /**
   * The preflight's warnings that still hold after a bootstrap: sysctls not in force are not among
   * them when the bootstrap tuned the kernel, since it applied them (or failed).
   */
  private static List<PreflightReport.Check> warningsLeft(
      PreflightReport preflight, boolean tuneKernel) {
    return preflight.warnings().stream()
        .filter(c -> !(tuneKernel && c.name().equals(SysctlsCheck.NAME)))
        .toList();
  }

  /** Checks the goal's version is complete, writes the units and points {@code current} at it. */
  private void installUnitsAndActivate(MachineGoalState goal) {
    ActivateVersionPhase activate = new ActivateVersionPhase(parts);
    tasks.execute(
        Task.of("check-version", () -> activate.requireComplete(goal.rootFs().versionName())));
    recordCniEntriesBefore();
    tasks.execute(Task.of("write-units", () -> new WriteUnitsPhase(parts).run(goal)));
    tasks.execute(Task.of("activate-version", () -> activate.run(goal.rootFs().versionName())));
  }

  /**
   * Records which entries of the CNI configuration and state directories, and which network
   * links, are there before the node's stack first runs (once: a provision run again keeps the
   * first record). The links are recorded first and only while the CNI entries are not: a node
   * provisioned before links were recorded may have run its stack, so the links it has now are no
   * record of the host's.
   */
  private void recordCniEntriesBefore() {
    tasks.execute(Task.of("record-cni-entries", () -> {
      CniEntriesBefore cni = new CniEntriesBefore(ports.files(), paths, layout);
      if (!ports.files().exists(cni.path())) {
        new LinksBefore(ports.files(), ports.network(), layout).recordIfAbsent();
      }
      cni.recordIfAbsent();
    }));
  }

  private void recordApplied(AgentConfig config) {
    tasks.execute(Task.of(
        "record-applied-config", () -> new AppliedConfigStore(ports.files(), paths).write(config)));
  }

  /**
   * The first step of a bootstrap, before anything outside the layout changes: install and verify
   * the version. When that fails on a host where no node was before, what the bootstrap left in
   * the layout (its lock, staging, the layout itself and the parents it created) goes again.
   */
  private void prepareOrLeaveNoTrace() {
    try {
      tasks.execute(Task.of("prepare", () -> new InstallVersionPhase(parts).run(goalState())));
    } catch (RuntimeException failure) {
      try {
        TeardownSteps teardown = teardown().steps();
        if (!teardown.present()) {
          teardown.removeBootstrapLeftovers();
        }
      } catch (IOException | RuntimeException cleanup) {
        failure.addSuppressed(cleanup);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        failure.addSuppressed(interrupted);
      }
      throw failure;
    }
  }

  /**
   * Writes this configuration at its host paths, prepares the LocalDNS network and reloads
   * systemd if a unit changed.
   *
   * @return which families of files differed from what was on disk
   */
  public ConfigureResult configure() {
    return configure(goalState());
  }

  /** {@link #configure()} for another goal state (a rollback writes the previous one's). */
  ConfigureResult configure(MachineGoalState goal) {
    return parts.locked("configure", () -> ConfigureResult.of(new ConfigurePhase(parts).run(goal)));
  }

  /**
   * {@link #configure(MachineGoalState)} without the LocalDNS network: an upgrade and a rollback
   * write a configuration while the other one's interface may still hold the address, and set
   * the interface up themselves once the stack is stopped and the host networking cleaned.
   */
  ConfigureResult writeConfiguration(MachineGoalState goal) {
    return parts.locked(
        "configure", () -> ConfigureResult.of(new ConfigurePhase(parts).run(goal, false)));
  }

  /**
   * Reconfigures the running node in place, under one hold of the node lock: refuses a
   * configuration that needs other binaries than the active version's (that is an upgrade) before
   * it changes anything, then {@link #configure()}; each unit that runs and whose configuration
   * changed is restarted (LocalDNS; containerd, and kubelet after it when kubelet runs; kubelet),
   * each unit that does not run is started (its start reads the new configuration), and kubelet
   * is waited for; a unit that ran is never left stopped by it. Only then, with every unit running
   * the new configuration, is it recorded as applied; a failed restart or start throws and leaves
   * the record as it was.
   *
   * @throws VersionChangeRefusedException when the configuration needs another version
   * @throws dev.noneops.core.node.NodeAbsentException when no node is installed on this host
   * @throws NotConfiguredException when the node has no configuration
   */
  public ApplyResult apply() {
    AgentConfig config =
        effectiveConfig().orElseThrow(() -> new NotConfiguredException("applying"));
    return parts.locked("apply", () -> {
      String active =
          version().orElseThrow(() -> new NodeAbsentException(layout.current(), "apply"));
      String wanted = goalState().rootFs().versionName();
      if (!wanted.equals(active)) {
        throw new VersionChangeRefusedException(wanted, active);
      }
      boolean wasRunning = running();
      Set<Path> disownedBefore = disownedPaths();
      ConfigureResult changes = configure();
      List<Path> disowned = newlyDisowned(disownedBefore);
      StartPhase.StackChanges done =
          parts.locked("start", () -> new StartPhase(parts).apply(goalState(), changes.files()));
      recordApplied(config);
      return new ApplyResult(
          active, wasRunning, changes, running(), done.restarted(), done.started(), disowned);
    });
  }

  /** {@link #preflight(boolean)} for a bootstrap that tunes the kernel. */
  public PreflightReport preflight() {
    return preflight(true);
  }

  /**
   * Every check that bootstrap, apply and upgrade rely on, as kubeadm's preflight, changing
   * nothing: root, systemd, cgroup v2, the kernel modules and sysctls, swap, the ports the stack
   * binds, a kubelet or containerd of the host's own, host files at the shared paths, free space
   * under the layout, whether the artifact sources answer, and, for a node that installs the
   * agent, whether root alone can change its configuration file and java. {@link
   * #bootstrap(boolean)} runs the same checks first.
   *
   * @param tuneKernel false as for a bootstrap that leaves the kernel alone: a missing module is
   *     then a warning, not a failure
   * @throws NotConfiguredException when the node has no configuration
   */
  public PreflightReport preflight(boolean tuneKernel) {
    return PreflightReport.of(
        Preflight.of(parts, agent(), () -> plan().takenOver(), goalState(), tuneKernel)
            .run());
  }

  /**
   * What {@link #provision()}, {@link #configure()} and {@link #start(boolean, ConfigureResult)}
   * (or {@link #upgrade()}) would do for this configuration, changing nothing: no file is written,
   * no lock taken, no unit touched, nothing downloaded (see {@link NodePlan}).
   */
  public NodePlan plan() {
    try {
      return new NodePlanner(this).plan(goalState());
    } catch (IOException e) {
      throw new NodeException("plan: " + e.getMessage(), e);
    }
  }

  /**
   * Lists the node's kernel modules for boot ({@code ModulesLoadPath}), loads them now (overlay,
   * then br_netfilter), writes the sysctl presets and applies them, which needs br_netfilter
   * loaded. {@link #bootstrap(boolean)} does this in its place in the sequence.
   */
  public void loadKernelModules() {
    parts.locked("load-kernel-modules", () -> {
      KernelTuningPhase kernel = new KernelTuningPhase(parts);
      kernel.loadModules();
      kernel.writeSysctls();
      kernel.applySysctls();
      return null;
    });
  }

  /**
   * {@link #start(boolean, ConfigureResult)} as the seed has it, without LocalDNS: a changed
   * Corefile is picked up by CoreDNS itself (its {@code reload} plugin); a changed LocalDNS unit
   * needs {@link #start(boolean, ConfigureResult)}.
   */
  public void start(boolean wasRunning, boolean containerdChanged, boolean kubeletChanged) {
    start(wasRunning, new ConfigureResult(containerdChanged, kubeletChanged, false));
  }

  /**
   * The node's own bounded wait for kubelet's readiness (its unit active, its healthz answering),
   * the one {@link #start(boolean, ConfigureResult)} runs unless {@code Overrides.waitKubelet}
   * replaces it; a replacement that only prepares the host around the wait calls this.
   *
   * @throws ReadinessTimeoutException when kubelet is not ready within the readiness timeout
   */
  public void awaitKubeletReady() throws InterruptedException {
    parts.stack().awaitKubelet(HostPaths.KUBELET_UNIT);
  }

  /**
   * Brings the stack up. Not running: GPU setup, then LocalDNS, containerd and kubelet in one
   * request to systemd (with image archives staged: LocalDNS and containerd, the archives, then
   * kubelet), then a bounded wait for kubelet. Running: restarts only what changed (containerd
   * first, and kubelet after it, once), then waits for kubelet.
   */
  public void start(boolean wasRunning, ConfigureResult changes) {
    parts.locked("start", () -> {
      new StartPhase(parts).run(goalState(), wasRunning, changes.files());
      return null;
    });
  }

  /**
   * Soft reboot of the stack: LocalDNS (then wait until it answers), containerd, kubelet (then
   * wait until it is active). The host is not rebooted.
   */
  public void restart() {
    parts.locked("restart", () -> {
      new RestartPhase(parts).run(goalState());
      return null;
    });
  }

  /**
   * Stops kubelet, containerd and LocalDNS, in that order — each only when its unit file is the
   * node's (carries the marker). Every unit is attempted; the first failure is thrown with the
   * others suppressed. Needs no configuration; on a host without a node it takes no lock.
   */
  @SuppressWarnings("try")
  public void stop() {
    StopPhase phase = new StopPhase(parts);
    tasks.execute(Task.of("stop", () -> {
      if (!ports.files().exists(layout.root())) {
        phase.run();
        return;
      }
      try (NodeLock.Hold hold = lock.acquire("stop")) {
        phase.run();
      }
    }));
  }

  /** Whether the stack is up: LocalDNS, containerd and kubelet all active. */
  public boolean running() {
    for (String unit : HostPaths.STACK_UNITS) {
      if (!parts.stack().isActive(unit)) {
        return false;
      }
    }
    return true;
  }

  /** The active version: the target of {@code current}; empty when there is none. */
  public Optional<String> version() {
    try {
      Optional<FileMeta> meta = ports.files().lstat(layout.current());
      if (meta.isEmpty() || !meta.get().isSymlink()) {
        return Optional.empty();
      }
      Path name = Path.of(ports.files().readLink(layout.current())).getFileName();
      return name == null ? Optional.empty() : Optional.of(name.toString());
    } catch (IOException e) {
      throw new NodeException("read " + layout.current() + ": " + e.getMessage(), e);
    }
  }

  /** The isolation backend with this node's phases injected. */
  public NodeBackend backend() {
    return new NodeBackend(this);
  }

  // ------------------------------------------------------------------ upgrade (DESIGN.md section
  // 6)

  /** {@link #upgrade(boolean)} without force. */
  public UpgradeResult upgrade() {
    return upgrade(false);
  }

  /**
   * Installs this configuration's version beside the active one and switches over, rolling back
   * to {@code Params.previous} if it does not come up (see {@link Upgrade}).
   *
   * @param force retry an upgrade that was rolled back before
   * @throws dev.noneops.core.node.UpgradeFailedException with the cause and the rollback outcome
   * @throws dev.noneops.core.node.UpgradeRefusedException when it could not start; nothing changed
   * @throws dev.noneops.core.node.NodeBusyException when another process holds the node lock
   */
  public UpgradeResult upgrade(boolean force) {
    AgentConfig config =
        effectiveConfig().orElseThrow(() -> new NotConfiguredException("upgrading"));
    NodeUpgradeSteps steps = new NodeUpgradeSteps(
        new NodeUnderUpgrade(),
        this::goalState,
        this::previousGoalState,
        () -> ConfigDigest.of(config).hex());
    return upgradeOperation("upgrade", () -> {
      Set<Path> disownedBefore = disownedPaths();
      VersionSwitch result = new Upgrade(upgradeContext()).run(steps, force);
      return new UpgradeResult(
          result.previousVersion(), result.targetVersion(), newlyDisowned(disownedBefore));
    });
  }

  private Set<Path> disownedPaths() throws IOException {
    Set<Path> paths = new TreeSet<>();
    parts.ownership().disowned().forEach(d -> paths.add(d.path()));
    return paths;
  }

  /** The paths disowned since {@code before}, each said once in the log too. */
  private List<Path> newlyDisowned(Set<Path> before) throws IOException {
    List<Path> added = new ArrayList<>();
    for (OwnershipStore.Disowned d : parts.ownership().disowned()) {
      if (!before.contains(d.path())) {
        added.add(d.path());
        parts
            .params()
            .log()
            .atWarn()
            .addKeyValue("path", d.path())
            .addKeyValue("found", d.found())
            .log("a " + d.found() + " replaced the node's link; the node no longer owns it and"
                + " leaves it as it is");
      }
    }
    return added;
  }

  /**
   * The whole upgrade an operator runs, under one hold of the node lock: {@link #upgrade(boolean)},
   * then the applied configuration recorded, {@link #commit()}, and {@link #pruneVersions()} when
   * asked. One hold, because a recovery run between the switch and the recorded configuration
   * would take the good upgrade for an interrupted one and roll it back.
   *
   * @throws dev.noneops.core.node.UpgradeFailedException with the cause and the rollback outcome
   * @throws dev.noneops.core.node.UpgradeRefusedException when it could not start; nothing changed
   * @throws dev.noneops.core.node.NodeBusyException when another process holds the node lock
   * @throws NotConfiguredException when the node has no configuration
   */
  @SuppressWarnings("try")
  public UpgradeAndCommitResult upgradeAndCommit(UpgradeOptions options) {
    Objects.requireNonNull(options, "options");
    AgentConfig config =
        effectiveConfig().orElseThrow(() -> new NotConfiguredException("upgrading"));
    return upgradeOperation("upgrade", () -> {
      try (NodeLock.Hold hold = lock.acquire("upgrade")) {
        UpgradeResult result = upgrade(options.force());
        tasks.execute(Task.of(
            "record-applied-config",
            () -> new AppliedConfigStore(ports.files(), paths).write(config)));
        commit();
        Optional<PruneResult> pruned =
            options.prune() ? Optional.of(pruneVersions()) : Optional.empty();
        return new UpgradeAndCommitResult(result, pruned);
      }
    });
  }

  /**
   * Ends a successful upgrade once the caller has persisted the applied config (see
   * {@link UpgradeCommit}); empty when no upgrade was in flight.
   */
  public Optional<JournaledUpgrade> commit() {
    if (!hasLayout()) {
      return Optional.empty();
    }
    return upgradeOperation(
        "commit", () -> new UpgradeCommit(upgradeContext()).run().map(JournaledUpgrade::of));
  }

  /**
   * Finishes an upgrade a crash interrupted, given the applied config the daemon starts with
   * (see {@link UpgradeRecovery}). An upgrade whose owner (the process that ran it) still runs is
   * not interrupted: it is that process's to commit.
   *
   * @throws UpgradeInProgressException when the journal's owner, another process, still runs;
   *     nothing was changed
   */
  public RecoveryResult recoverUpgrade(AgentConfig applied) {
    return recover(applied, UpgradeRecovery.Mode.LIVE, UpgradeRecovery.Claim.UNLESS_OWNER_RUNS);
  }

  /**
   * {@link #recoverUpgrade(AgentConfig)} as the daemon runs it while it watches the node: only an
   * upgrade whose owner is gone (or is this process) is taken for interrupted, and {@code
   * applied} must still be the applied configuration once the node lock is held.
   *
   * @throws UpgradeInProgressException when the journal's owner still runs, or the journal names
   *     none (those are recovered at a start); nothing was changed
   * @throws NodeBusyException when another process holds the node lock, or the applied
   *     configuration changed since {@code applied} was read
   */
  public RecoveryResult recoverAbandonedUpgrade(AgentConfig applied) {
    return recover(applied, UpgradeRecovery.Mode.LIVE, UpgradeRecovery.Claim.ONLY_ABANDONED);
  }

  /**
   * {@link #recoverUpgrade(AgentConfig)} as the recovery gate runs it at boot, before the stack's
   * units: the node's files, links and units are made consistent (an interrupted upgrade
   * committed or rolled back), and the stack is neither stopped nor started — systemd starts it
   * once the gate has finished.
   *
   * @throws dev.noneops.core.upgrade.NodeBusyException when an operation holds the node lock (the
   *     node is live, not booting)
   */
  public RecoveryResult recoverAtBoot(AgentConfig applied) {
    return recover(applied, UpgradeRecovery.Mode.BOOT, UpgradeRecovery.Claim.UNLESS_OWNER_RUNS);
  }

  private RecoveryResult recover(
      AgentConfig applied, UpgradeRecovery.Mode mode, UpgradeRecovery.Claim claim) {
    Objects.requireNonNull(applied, "applied");
    if (!hasLayout()) {
      return new RecoveryResult(
          RecoveryResult.Outcome.NOTHING_TO_DO, Optional.empty(), List.of(), Optional.empty());
    }
    Supplier<MachineGoalState> appliedGoal = new Supplier<>() {
      private MachineGoalState resolved;

      @Override
      public MachineGoalState get() {
        if (resolved == null) {
          resolved = resolve(applied);
        }
        return resolved;
      }
    };
    boolean configured = params.config().isPresent() || params.goalState().isPresent();
    NodeUpgradeSteps steps = new NodeUpgradeSteps(
        new NodeUnderUpgrade(),
        configured ? this::goalState : appliedGoal,
        appliedGoal,
        () -> ConfigDigest.of(effectiveConfig().orElse(applied)).hex());
    return upgradeOperation(
        "recover-upgrade",
        () -> RecoveryResult.of(new UpgradeRecovery(upgradeContext(), mode)
            .run(steps, ConfigDigest.of(applied).hex(), claim)));
  }

  /**
   * Removes every installed version except the active one, keeping (and reporting) every version
   * something still uses (see {@link VersionPruner}).
   */
  @SuppressWarnings("try")
  public PruneResult pruneVersions() {
    if (!hasLayout()) {
      return new PruneResult(List.of(), List.of(), Map.of());
    }
    return upgradeOperation("prune-versions", () -> {
      try (NodeLock.Hold hold = lock.acquire("prune versions")) {
        return PruneResult.of(new VersionPruner(
                ports.files(), ports.processes(), layout, paths, teardown().steps()::removeTree)
            .prune());
      }
    });
  }

  /**
   * The node's read-only views: status, launch check, installed versions and their verification.
   * None takes the node lock or needs a configuration.
   */
  public NodeInspection inspect() {
    return new NodeInspection(
        parts,
        new VersionPruner(
            ports.files(), ports.processes(), layout, paths, teardown().steps()::removeTree));
  }

  private UpgradeContext upgradeContext() {
    return new UpgradeContext(
        ports.files(),
        ports.clock(),
        layout,
        paths,
        tasks,
        lock,
        new UpgradeOwners(ports.processes(), ports.facts()),
        teardown().steps()::removeTree,
        params.log());
  }

  /**
   * Removes the node from the host, as {@code noneops reset} does, needing no configuration: when
   * a node is there its stack stopped, its configuration removed (originals put back), LocalDNS's
   * dummy interface (named by the applied configuration, else the default), the bridges the CNI
   * configuration names for the pods ({@link CniBridges}) and the applied configuration removed,
   * then the rest ({@link Teardown#destroy()}); otherwise only what a
   * bootstrap that installed nothing left behind. Anything kept is in the report.
   *
   * @throws NodeException when LocalDNS's interface or a pods' bridge is there but cannot be
   *     removed
   */
  public ResetResult reset() {
    return upgradeOperation("reset", () -> {
      Teardown teardown = teardown();
      if (!teardown.present()) {
        return new ResetResult(
            false, TeardownReport.of(teardown.steps().removeBootstrapLeftovers()), List.of());
      }
      stopAgent();
      AppliedConfigStore applied = new AppliedConfigStore(ports.files(), paths);
      String dnsInterface = applied
          .read()
          .map(c -> c.normalized().localDns().interfaceName())
          .orElse(AgentConfig.DEFAULT_LOCALDNS_INTERFACE);
      List<String> named =
          CniBridges.named(ports.files(), paths.cniConfDir(), cniEntriesBeforeOrNone());
      TeardownReport hostsLinks = linksFromBefore(named);
      List<String> bridges = named.stream()
          .filter(
              b -> hostsLinks.kept().stream().noneMatch(k -> k.subject().equals(linkSubject(b))))
          .toList();
      TeardownReport report = teardown.stop().plus(teardown.removeConfig()).plus(hostsLinks);
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
    if (ForeignStackDetector.isNodesUnitFile(ports.files(), paths.unit(HostPaths.AGENT_UNIT))) {
      tasks.execute(Task.of("stop-agent", () -> parts.stack().stop(HostPaths.AGENT_UNIT)));
    }
  }

  /**
   * The CNI entries from before the node; none when the record is unreadable, so no bridge is
   * removed (the teardown reports the record itself).
   */
  private Optional<Set<Path>> cniEntriesBeforeOrNone() throws IOException {
    try {
      return new CniEntriesBefore(ports.files(), paths, layout).load();
    } catch (CorruptStateException e) {
      return Optional.empty();
    }
  }

  /**
   * Which of the bridges the node's CNI configuration names were on the host before the node
   * came ({@link LinksBefore}), each as kept: the host's, never removed. Without a record (a node
   * provisioned before links were recorded) none is, as before the record existed; an unreadable
   * record keeps every one, as a failure that names the record.
   */
  private TeardownReport linksFromBefore(List<String> bridges) throws IOException {
    Set<String> before;
    TeardownReport.Reason reason = TeardownReport.Reason.FROM_BEFORE_THE_NODE;
    String why =
        "a bridge the host had before the node came, which the node's CNI configuration" + " names";
    try {
      Optional<Set<String>> recorded =
          new LinksBefore(ports.files(), ports.network(), layout).load();
      if (recorded.isEmpty()) {
        return TeardownReport.empty();
      }
      before = recorded.get();
    } catch (CorruptStateException e) {
      before = Set.copyOf(bridges);
      reason = TeardownReport.Reason.FAILED;
      why = "not removed: " + e.getMessage();
    }
    List<TeardownReport.Kept> kept = new ArrayList<>();
    for (String bridge : bridges) {
      if (before.contains(bridge)) {
        kept.add(new TeardownReport.Kept(reason, linkSubject(bridge), why));
      }
    }
    return new TeardownReport(List.of(), kept);
  }

  private static String linkSubject(String link) {
    return "link " + link;
  }

  /** Removes the pods' bridges {@link CniBridges} found, now that the stack and its pods are gone. */
  private List<String> removeCniBridges(List<String> bridges) {
    try {
      return CniBridges.remove(ports.network(), bridges).stream()
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
      return new LocalDnsNetwork(ports.network()).remove(name) == LocalDnsNetwork.Removal.REMOVED
          ? List.of("LocalDNS interface " + name)
          : List.of();
    } catch (IOException e) {
      throw new NodeException(
          "cannot remove the LocalDNS interface " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * This node's teardown: the same layout and host paths, and the same {@link NodeLock}, so a
   * teardown run while this node holds the lock re-enters it instead of being refused as busy.
   */
  public Teardown teardown() {
    return new Teardown(
        new TeardownSteps(ports, layout, paths, TeardownOptions.defaults(), params.log(), lock));
  }

  private boolean hasLayout() {
    try {
      return ports.files().exists(layout.root());
    } catch (IOException e) {
      throw new NodeException("read " + layout.root() + ": " + e.getMessage(), e);
    }
  }

  private static <T> T upgradeOperation(String operation, Callable<T> body) {
    try {
      return body.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new NodeException(operation + ": " + e.getMessage(), e);
    }
  }

  /** This node as its upgrade's steps see it. */
  private final class NodeUnderUpgrade implements UpgradedNode {
    @Override
    public NodeParts parts() {
      return parts;
    }

    @Override
    public String prepareTarget() {
      return prepare().slot();
    }

    @Override
    public void writeConfiguration(MachineGoalState goal) {
      Node.this.writeConfiguration(goal);
    }

    @Override
    public void stop() {
      Node.this.stop();
    }

    @Override
    public void startStopped() {
      start(false, new ConfigureResult(false, false, false));
    }

    @Override
    public boolean running() {
      return Node.this.running();
    }

    @Override
    public List<String> endPods() throws InterruptedException {
      return teardown().steps().endPods().blocking().stream()
          .map(Object::toString)
          .toList();
    }

    @Override
    public List<String> cleanCniState() throws InterruptedException {
      return teardown().steps().cleanCniState().blocking().stream()
          .map(Object::toString)
          .toList();
    }
  }
}
