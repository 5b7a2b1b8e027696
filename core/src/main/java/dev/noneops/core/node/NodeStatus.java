package dev.noneops.core.node;

import java.util.List;
import java.util.Map;

/**
 * The node as it is, read without the lock and without a configuration (see
 * {@link NodeInspection#status()}): what is installed and active, the stack's units (or why systemd could
 * not say), an upgrade in flight, the applied configuration.
 *
 * @param installed whether a version is active or installed
 * @param activeVersion the version {@code current} names; null when there is none
 * @param installedVersions the complete and incomplete versions of the layout
 * @param running whether every unit of the stack is active
 * @param units each unit of the stack, in start order; empty when systemd cannot be reached
 * @param systemdError why systemd could not be asked; null when it answered
 * @param upgradeInFlight the upgrade whose journal is on disk; null when none is
 * @param appliedConfig whether an applied configuration is recorded
 * @param appliedMachineName the machine name of the applied configuration; null without one
 * @param versionSizes each installed version's size on disk, in the order of
 *     {@code installedVersions}
 * @param pods how many pods containerd runs, or why that is unknown
 * @param agentUnit the agent's daemon ({@code noneops-agent.service}) as systemd reports it;
 *     null when systemd cannot be reached
 * @param gateUnit the recovery gate ({@code noneops-recover.service}) as systemd reports it: {@code
 *     inactive} when it has not run in this boot (systemd's conditions skipped it, nothing being in
 *     flight), {@code active}/{@code exited} or {@code failed} when it ran; null when systemd
 *     cannot be reached
 * @param disowned the shared paths the node no longer owns because something else replaced
 *     its link there (a CNI installer's own plugin binary), sorted; left as they are
 * @param needsRoot what this process could not read because it does not run as root (each
 *     with its path), left out of the fields above; empty as root
 */
public record NodeStatus(
    boolean installed,
    String activeVersion,
    List<String> installedVersions,
    boolean running,
    Map<String, Unit> units,
    String systemdError,
    UpgradeInFlight upgradeInFlight,
    boolean appliedConfig,
    String appliedMachineName,
    List<VersionSize> versionSizes,
    Pods pods,
    Unit agentUnit,
    Unit gateUnit,
    List<Disowned> disowned,
    List<String> needsRoot) {

  /** How {@code needsRoot} names the applied configuration (followed by its path). */
  public static final String APPLIED_CONFIGURATION = "the applied configuration";

  /**
   * A shared path the node no longer owns.
   *
   * @param path the host path
   * @param found what replaced the node's link there, e.g. {@code regular file}
   */
  public record Disowned(String path, String found) {}

  /**
   * One unit's state as systemd reports it, in lower case.
   *
   * @param activeSince when the unit last became active (ISO-8601); null unless it is active
   */
  public record Unit(String load, String active, String sub, long mainPid, String activeSince) {}

  /** An installed version's size: a complete one's from its manifest, another's from the disk. */
  public record VersionSize(String version, boolean active, long bytes, long files) {}

  /**
   * The pods containerd runs, as its {@code ctr} answers in the {@code k8s.io} namespace.
   *
   * @param running the pod sandboxes with a running task; null when unknown
   * @param tasks every running task (pod sandboxes and containers); null when unknown
   * @param unknownBecause why a count is unknown (containerd is not active, {@code ctr} did not
   *     answer); null when both are known
   */
  public record Pods(Integer running, Integer tasks, String unknownBecause) {
    public static Pods unknown(String why) {
      return new Pods(null, null, why);
    }
  }

  /** An upgrade whose journal is on disk: it ends with {@code noneops recover} or a commit. */
  public record UpgradeInFlight(String previousVersion, String targetVersion, String startedAt) {}
}
