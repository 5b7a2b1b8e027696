package dev.noneops.testkit.sandbox;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes what sandboxes of JVMs that were killed outright left behind: their sandboxes died with
 * them (see {@link BootScript#LAUNCHER}), but an empty cgroup directory and a temporary directory
 * with the scripts and boot log remain. Both names end in the owning JVM's pid; only those whose
 * JVM is gone are removed.
 */
final class StaleSandboxes {
  static final String PREFIX = "noneops-sandbox-";
  /** A cgroup: {@code noneops-sandbox-<name>-<jvm pid>}. */
  private static final Pattern CGROUP_OWNER = Pattern.compile(Pattern.quote(PREFIX) + ".+-(\\d+)");
  /** A temporary directory: {@code noneops-sandbox-<name>-<jvm pid>-<random digits>}. */
  private static final Pattern WORK_DIR_OWNER =
      Pattern.compile(Pattern.quote(PREFIX) + ".+-(\\d+)-\\d+");

  private StaleSandboxes() {}

  /** The name prefix of this JVM's sandbox directories: {@code noneops-sandbox-<name>-<jvm pid>}. */
  static String nameFor(String sandboxName) {
    return PREFIX + sandboxName + "-" + ProcessHandle.current().pid();
  }

  static void removeLeftovers(Path cgroupHierarchy, Path tempDir) {
    for (Path stale : ownedByDeadJvms(cgroupHierarchy, CGROUP_OWNER)) {
      SandboxCgroup cgroup = SandboxCgroup.at(stale);
      if (cgroup.populated()) {
        continue;
      }
      try {
        cgroup.remove(Duration.ZERO);
      } catch (IOException | InterruptedException e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        System.err.println("cannot remove stale sandbox cgroup " + stale + ": " + e);
      }
    }
    for (Path stale : ownedByDeadJvms(tempDir, WORK_DIR_OWNER)) {
      SystemdSandbox.deleteWorkDir(stale);
    }
  }

  private static List<Path> ownedByDeadJvms(Path dir, Pattern owner) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, PREFIX + "*")) {
      List<Path> stale = new ArrayList<>();
      for (Path entry : entries) {
        Matcher name = owner.matcher(String.valueOf(entry.getFileName()));
        if (name.matches()
            && Files.isDirectory(entry)
            && ProcessHandle.of(Long.parseLong(name.group(1))).isEmpty()) {
          stale.add(entry);
        }
      }
      return stale;
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }
}
