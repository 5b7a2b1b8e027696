package dev.noneops.core.node.internal.preflight;

import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;

/**
 * The host's systemd answers, is recent enough for the node's units, and has booted: running is a
 * pass, degraded (a unit failed) or still starting a warning, maintenance or stopping a failure.
 */
public final class SystemdCheck implements PreflightCheck {
  /** The oldest systemd the node's units are written for. */
  public static final int MINIMUM_VERSION = 240;

  private final Systemd systemd;

  public SystemdCheck(Systemd systemd) {
    this.systemd = systemd;
  }

  @Override
  public String name() {
    return "systemd";
  }

  @Override
  public CheckOutcome run() {
    ManagerState manager;
    try {
      manager = systemd.manager();
    } catch (SystemdException e) {
      return fail(
          "systemd cannot be asked: " + e.getMessage(),
          "run on a host booted with systemd whose system bus is reachable");
    }
    String detail = "systemd " + manager.version() + ", " + manager.systemState();
    if (manager.major() < MINIMUM_VERSION) {
      return fail(
          detail + "; older than " + MINIMUM_VERSION,
          "upgrade systemd to " + MINIMUM_VERSION + " or later");
    }
    return switch (manager.systemState()) {
      case "running" -> ok(detail);
      case "degraded" ->
        warn(detail, "a unit of the host failed: see 'systemctl --failed' and fix or reset it");
      case "initializing", "starting" ->
        warn(
            detail,
            "the host is still booting: run again once 'systemctl is-system-running' says running");
      default ->
        fail(detail, "the host is in " + manager.systemState() + ": bring it to running first");
    };
  }
}
