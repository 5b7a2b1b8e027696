package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.phases.ConfigurePhase;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.preflight.Preflight;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import dev.noneops.core.node.internal.upgrade.VersionPruner;
import dev.noneops.ports.HostPorts;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * A node bound to one configuration: installs its version, writes its configuration at the shared
 * host paths, and starts, restarts and stops its stack (LocalDNS, containerd, kubelet) natively
 * under the host's systemd.
 *
 * <p>Each public method is one operation, a short delegation to its phases or to a use case of
 * its own ({@code BootstrapUseCase}, {@code ApplyUseCase}, {@code UpgradeUseCase}, {@code
 * RecoverUseCase}, {@code ResetUseCase}); the read-only queries are behind {@link #inspect()}.
 * Goal-state resolution is lazy: {@link #stop()}, {@link #running()}, {@link #version()} and the
 * backend's stop and status work without a configuration. Every mutating operation holds the node
 * lock (re-entrant within this process, "busy" for another) and runs as a task, logged with its
 * duration; a failure is thrown as the typed {@link dev.noneops.core.NoneopsException} itself,
 * naming the task path where it happened.
 */
public final class Node {
  private final PhaseContext parts;
  private final Params params;
  private final HostPorts ports;
  private final Layout layout;
  private final HostPaths paths;
  private final NodeLock lock;
  private final GoalStates goalStates;

  public Node(Params params) {
    this.parts = PhaseContext.of(Objects.requireNonNull(params, "params"));
    this.params = params;
    this.ports = parts.ports();
    this.layout = parts.layout();
    this.paths = parts.paths();
    this.lock = parts.lock();
    this.goalStates = new GoalStates(params, ports, layout);
  }

  /** The parts this node's phases, planner, upgrade steps and backend share. */
  PhaseContext parts() {
    return parts;
  }

  /** This node's goal states: the target, the previous one, any configuration resolved. */
  GoalStates goalStates() {
    return goalStates;
  }

  /**
   * The resolved goal state with the host-native paths (binaries under {@code current/bin}, CNI
   * under {@code current/libexec/cni}); resolved once, on first use.
   *
   * @throws NotConfiguredException when the node has neither a configuration nor a goal state
   */
  public MachineGoalState goalState() {
    return goalStates.target();
  }

  /**
   * This node's configuration with {@code Params.downloads} written into its {@code Downloads}: the
   * configuration it installs, whose digest an upgrade journals, and so the one the caller records
   * as the applied config after a bootstrap or an upgrade. Empty when the node has no configuration.
   */
  public Optional<AgentConfig> effectiveConfig() {
    return goalStates.effectiveConfig();
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
        Preflight.of(parts, params.agent(), () -> plan().takenOver(), goalState(), tuneKernel)
            .run());
  }

  /**
   * The preflight checks that need no configuration, changing nothing: root, systemd, cgroup v2,
   * the kernel modules and sysctls, swap, kubelet's ports, a kubelet or containerd of the host's
   * own and free space under the layout. The others ({@link
   * PreflightReport#NEED_A_CONFIGURATION}) need {@link #preflight(boolean)} and a configuration.
   *
   * @param tuneKernel as for {@link #preflight(boolean)}
   */
  public PreflightReport preflightWithoutConfiguration(boolean tuneKernel) {
    return PreflightReport.of(Preflight.ofHost(parts, tuneKernel).run());
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
    new StackUseCase(this).loadKernelModules();
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
    new StackUseCase(this).start(wasRunning, changes);
  }

  /**
   * Soft reboot of the stack: LocalDNS (then wait until it answers), containerd, kubelet (then
   * wait until it is active). The host is not rebooted.
   */
  public void restart() {
    new StackUseCase(this).restart();
  }

  /**
   * Stops kubelet, containerd and LocalDNS, in that order — each only when its unit file is the
   * node's (carries the marker). Every unit is attempted; the first failure is thrown with the
   * others suppressed. Needs no configuration; on a host without a node it takes no lock.
   */
  public void stop() {
    new StackUseCase(this).stop();
  }

  /** Whether the stack is up: LocalDNS, containerd and kubelet all active. */
  public boolean running() {
    return new StackUseCase(this).running();
  }

  /** The active version: the target of {@code current}; empty when there is none. */
  public Optional<String> version() {
    return new StackUseCase(this).version();
  }

  /** The isolation backend with this node's phases injected. */
  public NodeBackend backend() {
    return new NodeBackend(this);
  }

  /** {@link #upgrade(boolean)} without force. */
  public UpgradeResult upgrade() {
    return upgrade(false);
  }

  /**
   * Makes sure this configuration's version is installed and verified, touching nothing the
   * running node uses. On a host without a node it first refuses a host with a kubelet or
   * containerd of its own, as {@link #bootstrap(boolean)} does, before it creates the layout.
   *
   * @return the root whose slot is the version name
   */
  public NodeRoot prepare() {
    return new ProvisionUseCase(this).prepare();
  }

  /**
   * First install (bootstrap): refuses a host with a kubelet or containerd of its own (changing
   * nothing), then prepares the version, writes the units and points {@code current} at it.
   */
  public void provision() {
    new ProvisionUseCase(this).provision();
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
  public BootstrapResult bootstrap(boolean tuneKernel) {
    return new BootstrapUseCase(this).run(tuneKernel);
  }

  /**
   * Installs this build ({@link Params.Builder#agent}) as the running node's agent and restarts
   * its daemon on it when it is another build; the stack, its version and its configuration are
   * left as they are. A package upgrade runs it, so the daemon runs the build installed.
   *
   * @throws NodeAbsentException when no node is installed on this host
   * @throws dev.noneops.core.config.WritableByOthersException when the agent would follow a file,
   *     or run a java, that a user or group other than root can change
   */
  public AgentUpdate updateAgent() {
    return new UpdateAgentUseCase(this).run();
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
    return new ApplyUseCase(this).run();
  }

  /**
   * Installs this configuration's version beside the active one and switches over, rolling back
   * to {@code Params.previous} if it does not come up.
   *
   * @param force retry an upgrade that was rolled back before
   * @throws dev.noneops.core.node.UpgradeFailedException with the cause and the rollback outcome
   * @throws dev.noneops.core.node.UpgradeRefusedException when it could not start; nothing changed
   * @throws dev.noneops.core.node.NodeBusyException when another process holds the node lock
   */
  public UpgradeResult upgrade(boolean force) {
    return new UpgradeUseCase(this).upgrade(force);
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
  public UpgradeAndCommitResult upgradeAndCommit(UpgradeOptions options) {
    return new UpgradeUseCase(this).upgradeAndCommit(options);
  }

  /**
   * Ends a successful upgrade once the caller has persisted the applied config (see
   * the upgrade's journal and saved configuration are dropped); empty when no upgrade was in flight.
   */
  public Optional<JournaledUpgrade> commit() {
    return new UpgradeUseCase(this).commit();
  }

  /**
   * Finishes an upgrade a crash interrupted, as an operator's {@code noneops recover} does, given
   * the applied config the node runs with: {@link #recoverUpgrade(AgentConfig, RecoveryMode)} in
   * {@link RecoveryMode#LIVE}.
   */
  public RecoveryResult recoverUpgrade(AgentConfig applied) {
    return recoverUpgrade(applied, RecoveryMode.LIVE);
  }

  /**
   * Finishes an upgrade a crash interrupted, given the applied config: committed when the node is
   * on the target with that configuration, rolled back otherwise; what counts as interrupted, and
   * whether the stack is restarted, is {@code mode}'s.
   *
   * @throws UpgradeInProgressException when the journal's owner, another process, still runs (or,
   *     for {@link RecoveryMode#ABANDONED_ONLY}, the journal names none); nothing was changed
   * @throws NodeBusyException when another process holds the node lock
   */
  public RecoveryResult recoverUpgrade(AgentConfig applied, RecoveryMode mode) {
    return new RecoverUseCase(this).run(applied, mode);
  }

  /**
   * Removes every installed version except the active one, keeping (and reporting) every version
   * something still uses.
   */
  public PruneResult pruneVersions() {
    return new UpgradeUseCase(this).prune();
  }

  /**
   * Removes the node from the host, as {@code noneops reset} does, needing no configuration: when
   * a node is there its stack stopped, its configuration removed (originals put back), LocalDNS's
   * dummy interface (named by the applied configuration, else the default), the bridges the CNI
   * configuration names for the pods and the applied configuration removed,
   * then the rest ({@link Teardown#destroy()}); otherwise only what a
   * bootstrap that installed nothing left behind. Anything kept is in the report.
   *
   * @throws NodeException when LocalDNS's interface or a pods' bridge is there but cannot be
   *     removed
   */
  public ResetResult reset() {
    return new ResetUseCase(this).run();
  }

  /**
   * What {@link #reset()} would stop, remove and put back on the host as it is now, in its order,
   * read without changing anything and without taking the node lock ({@code noneops reset
   * --dry-run}).
   *
   * @throws NodeException when the host cannot be read
   */
  public ResetPlan resetPlan() {
    return new ResetPlanner(this).plan();
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

  /**
   * This node's teardown: the same layout and host paths, and the same node lock, so a
   * teardown run while this node holds the lock re-enters it instead of being refused as busy.
   */
  public Teardown teardown() {
    return new Teardown(
        new TeardownSteps(ports, layout, paths, TeardownOptions.defaults(), params.log(), lock));
  }
}
