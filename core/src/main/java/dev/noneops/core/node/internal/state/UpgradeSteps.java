package dev.noneops.core.node.internal.state;

import dev.noneops.core.node.internal.state.UpgradeRecord.LocalDnsInterface;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * The node operations an upgrade, a rollback and a recovery are made of. The node implements
 * them over its phases (prepare, configure, start, stop) for one pair of configurations: the
 * {@link Configuration#TARGET target} the upgrade applies, and the {@link Configuration#APPLIED
 * applied} one the node ran before (the {@code Previous} of an upgrade, or the applied config
 * recovery is given). Every method may be run again after a crash or a failure and converges.
 */
public interface UpgradeSteps {

  /** Which of the two configurations a step works with. */
  public enum Configuration {
    /** The configuration the upgrade applies. */
    TARGET,
    /** The configuration the node ran with before the upgrade; what a rollback restores. */
    APPLIED
  }

  /** The version directory name of the target configuration ({@code VersionFor}); resolves the goal state, downloads nothing. */
  public String targetVersion() throws Exception;

  /** The digest of the target configuration, as the upgrade journal records it. */
  public String targetConfigDigest() throws Exception;

  /**
   * The Kubernetes version of the target's kubelet ({@code 1.31.3}); {@code ""} when these steps
   * do not say (the readiness gate and the version skew policy are then kubelet's healthz alone).
   */
  default String targetKubeletVersion() {
    return "";
  }

  /** The name of this node's Node object; {@code ""} when these steps do not say. */
  default String nodeName() {
    return "";
  }

  /** Installs and verifies the target version beside the active one (touches nothing in use); returns its name. */
  public String prepareTarget() throws Exception;

  /**
   * Proves offline that {@code version} can run again: its directory is complete and every file
   * matches its manifest. Throws naming the first mismatch.
   */
  public void verifyVersion(String version) throws Exception;

  /** Proves offline that the {@link Configuration#APPLIED applied} configuration can be rendered again. */
  public void verifyRollbackConfiguration() throws Exception;

  /**
   * Every shared host path the node owns now (its ownership record, and the record itself), plus
   * every path writing the configurations in {@code which} would create, change or remove: what
   * the saved configuration must hold so that a rollback restores each byte (and deletes what the
   * upgrade created).
   */
  public Set<Path> sharedFiles(Set<Configuration> which) throws Exception;

  /**
   * Writes the configuration and units of {@code which} at their host paths and reloads systemd if
   * units changed. No link is changed: {@code which}'s LocalDNS interface is set up by {@link
   * #setUpHostNetworking}, after the other stack is stopped, so an address that moves to another
   * interface is never on two links at once.
   */
  public void writeConfiguration(Configuration which) throws Exception;

  /**
   * Reloads systemd's unit definitions from the unit files on disk, so that a unit started next
   * runs what its file says (systemd keeps the definition it loaded until a reload).
   */
  public void reloadUnits() throws Exception;

  /** Stops the node's units (kubelet, containerd, LocalDNS). */
  public void stopStack() throws Exception;

  /** Ends the stack's pods: this node's container shims, then the pod cgroups. */
  public void endPods() throws Exception;

  /** The LocalDNS interface {@code which} sets up, as the journal records the target's. */
  public LocalDnsInterface localDnsInterface(Configuration which) throws Exception;

  /**
   * Removes the node's host networking (the LocalDNS interfaces of both configurations, and
   * {@code recordedTarget}, the one the journal says the target set up, which a recovery's steps
   * may not know) and the CNI configuration and state, as a repave does. Only a dummy interface
   * is ever removed, never another kind of link of that name. The interface that {@code
   * setUpNext}'s set-up wants is kept when it is exactly that already (a dummy link of its name,
   * up, holding only its address): it is read, not changed.
   */
  public void cleanHostNetworking(
      Optional<LocalDnsInterface> recordedTarget, Configuration setUpNext) throws Exception;

  /**
   * Sets up the host networking of {@code which} (the LocalDNS interface). Right after {@link
   * #cleanHostNetworking} by the same steps, what the clean-up found is used: a kept interface is
   * left as it is, a removed or absent one is made without reading it first; otherwise the link
   * is read, then completed.
   */
  public void setUpHostNetworking(Configuration which) throws Exception;

  /** Clears failed states and start-rate counters of the node's units, so a restart is not refused. */
  public void resetFailed() throws Exception;

  /** Starts the stack with {@code which}, and waits (bounded) until kubelet is ready. */
  public void startStack(Configuration which) throws Exception;

  /** Whether the stack is up. */
  public boolean running() throws Exception;
}
