package dev.noneops.testkit.sandbox;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The units a sandboxed systemd must not run, each with the reason, masked (linked to {@code
 * /dev/null}) in the overlay before systemd starts.
 *
 * <p>Namespaces do not isolate everything: sysctls outside {@code net.*}, the kernel's module,
 * binfmt, audit and entropy interfaces, the clock and the host's devices are shared. A boot of
 * Debian 12's systemd 252 over the host root with the recipe of docs/guides/tests.md was observed to
 * change the host's {@code fs.protected_*} sysctls (systemd-sysctl), to create {@code /dev/log},
 * {@code /dev/initctl}, {@code /dev/hugepages}, {@code /dev/mqueue} in the host's devtmpfs and to
 * run agetty on the host console (console-getty); hence the private {@code /dev} of {@link
 * BootScript} and this list. The rest is masked because it is irrelevant in a test sandbox and
 * only costs boot time. Units the host enabled (its {@code *.wants/} links under {@code
 * /etc/systemd/system}) are not masked but disabled in the overlay, see {@link BootScript}.
 */
public final class SandboxUnitMasks {
  private static final Map<String, String> MASKED = new LinkedHashMap<>();

  static {
    String kernel = "changes kernel state shared with the host";
    mask(
        kernel,
        "systemd-sysctl.service",
        "systemd-binfmt.service",
        "proc-sys-fs-binfmt_misc.automount",
        "proc-sys-fs-binfmt_misc.mount",
        "systemd-modules-load.service",
        "modprobe@.service",
        "kmod-static-nodes.service",
        "systemd-random-seed.service",
        "systemd-journald-audit.socket",
        "systemd-timesyncd.service",
        "systemd-pstore.service",
        "systemd-hwdb-update.service");
    String devices = "manages the host's devices";
    mask(
        devices,
        "systemd-tmpfiles-setup-dev.service",
        "systemd-udevd.service",
        "systemd-udevd-control.socket",
        "systemd-udevd-kernel.socket",
        "systemd-udev-trigger.service",
        "systemd-udev-settle.service");
    String consoles = "would drive the host's consoles and terminals";
    mask(
        consoles,
        "getty.target",
        "getty@.service",
        "serial-getty@.service",
        "console-getty.service",
        "container-getty@.service",
        "systemd-logind.service",
        "systemd-ask-password-console.path",
        "systemd-ask-password-wall.path",
        "systemd-initctl.socket");
    String irrelevant = "irrelevant in a test sandbox (boot time only)";
    mask(
        irrelevant,
        "dev-hugepages.mount",
        "dev-mqueue.mount",
        "sys-kernel-debug.mount",
        "sys-kernel-tracing.mount",
        "sys-kernel-config.mount",
        "sys-fs-fuse-connections.mount",
        "systemd-remount-fs.service",
        "systemd-firstboot.service",
        "systemd-machine-id-commit.service",
        "systemd-update-utmp.service",
        "systemd-update-utmp-runlevel.service",
        "systemd-repart.service",
        "systemd-pcrphase.service",
        "systemd-pcrphase-sysinit.service",
        "systemd-journal-catalog-update.service",
        "systemd-tmpfiles-clean.timer",
        "systemd-journal-flush.service",
        "systemd-user-sessions.service",
        "systemd-sysusers.service");
  }

  private SandboxUnitMasks() {}

  private static void mask(String reason, String... units) {
    for (String unit : units) {
      MASKED.put(unit, reason);
    }
  }

  /** The masked units, in a stable order. */
  public static List<String> units() {
    return List.copyOf(MASKED.keySet());
  }

  /** Why {@code unit} is masked; empty when it is not. */
  public static String reason(String unit) {
    return MASKED.getOrDefault(unit, "");
  }
}
