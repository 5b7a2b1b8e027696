package dev.noneops.core.node;

import java.util.List;
import java.util.Map;

/**
 * The node as it is, read without the lock and without a configuration (see
 * {@link Node#status()}): what is installed and active, the stack's units (or why systemd could
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
    String appliedMachineName) {

  /** One unit's state as systemd reports it, in lower case. */
  public record Unit(String load, String active, String sub, long mainPid) {}

  /** An upgrade whose journal is on disk: it ends with {@code noneops recover} or a commit. */
  public record UpgradeInFlight(String previousVersion, String targetVersion, String startedAt) {}
}
