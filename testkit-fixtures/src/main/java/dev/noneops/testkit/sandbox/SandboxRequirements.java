package dev.noneops.testkit.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether this machine can boot a {@link SystemdSandbox}: root, the util-linux tools, systemd,
 * dbus and a mounted cgroup2 hierarchy. Tests turn an unmet requirement into a skipped test that
 * states the reason.
 */
public final class SandboxRequirements {
  static final List<Path> TOOLS = List.of(
      Path.of("/usr/bin/unshare"),
      Path.of("/usr/bin/nsenter"),
      Path.of("/usr/bin/setpriv"),
      Path.of("/lib/systemd/systemd"),
      Path.of("/usr/bin/systemctl"),
      Path.of("/usr/bin/dbus-daemon"));

  private SandboxRequirements() {}

  /** Why a sandbox cannot be booted here; empty when it can. */
  public static Optional<String> unmetReason() {
    if (!runningAsRoot()) {
      return Optional.of(
          "booting a sandboxed systemd needs root (namespaces, mounts, cgroups); this JVM is not root");
    }
    List<String> missing = new ArrayList<>();
    for (Path tool : TOOLS) {
      if (!Files.isExecutable(tool)) {
        missing.add(tool.toString());
      }
    }
    if (!missing.isEmpty()) {
      return Optional.of(
          "the systemd sandbox needs " + missing + " (Debian packages util-linux, systemd, dbus)");
    }
    if (SandboxCgroup.unifiedHierarchy().isEmpty()) {
      return Optional.of(
          "the systemd sandbox needs a mounted cgroup2 hierarchy and this host has none");
    }
    return Optional.empty();
  }

  static boolean runningAsRoot() {
    try {
      return Files.readAllLines(Path.of("/proc/self/status")).stream()
          .filter(line -> line.startsWith("Uid:"))
          .map(line -> line.split("\\s+"))
          .anyMatch(fields -> fields.length > 2 && fields[2].equals("0"));
    } catch (IOException e) {
      return false;
    }
  }
}
