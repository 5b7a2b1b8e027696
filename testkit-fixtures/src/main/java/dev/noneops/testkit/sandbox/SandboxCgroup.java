package dev.noneops.testkit.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The cgroup-v2 subtree a sandbox's systemd owns: a directory created at the root of the host's
 * unified hierarchy, into which the sandbox is started before it unshares its cgroup namespace, so
 * the sandboxed systemd sees that directory as its {@code /sys/fs/cgroup} and creates its slices
 * there, and nowhere else.
 *
 * <p>Works on a pure cgroup-v2 host ({@code /sys/fs/cgroup} is cgroup2) and on a hybrid one where
 * {@code /sys/fs/cgroup} is a tmpfs of v1 hierarchies with the unified hierarchy at {@code
 * /sys/fs/cgroup/unified} (the case on the machine this was written on; there the v2 hierarchy
 * has no controllers, so the sandbox gets no resource control, only process tracking).
 */
final class SandboxCgroup {
  private final Path directory;

  private SandboxCgroup(Path directory) {
    this.directory = directory;
  }

  /** Creates {@code <unified hierarchy>/noneops-sandbox-<name>-<jvm pid>}. */
  static SandboxCgroup create(String name) throws IOException {
    Path directory = requireUnifiedHierarchy().resolve(StaleSandboxes.nameFor(name));
    Files.createDirectory(directory);
    return new SandboxCgroup(directory);
  }

  /** An existing sandbox cgroup directory. */
  static SandboxCgroup at(Path directory) {
    return new SandboxCgroup(directory);
  }

  static Path requireUnifiedHierarchy() throws IOException {
    return unifiedHierarchy()
        .orElseThrow(
            () -> new IOException(
                "no cgroup2 file system is mounted on this host (looked in /proc/self/mountinfo); the sandbox needs the unified hierarchy"));
  }

  /** The mount point of the host's cgroup2 file system, if one is mounted. */
  static Optional<Path> unifiedHierarchy() {
    try {
      return Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8).stream()
          .map(line -> line.split(" "))
          .filter(fields -> {
            int separator = List.of(fields).indexOf("-");
            return separator > 0
                && separator + 1 < fields.length
                && fields[separator + 1].equals("cgroup2");
          })
          .map(fields -> Path.of(fields[4].replace("\\040", " ")))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  Path directory() {
    return directory;
  }

  boolean populated() {
    try {
      return Files.readAllLines(directory.resolve("cgroup.events")).contains("populated 1");
    } catch (IOException gone) {
      return false;
    }
  }

  /**
   * Waits until no process is left in the subtree (killing what is left through {@code
   * cgroup.kill} after {@code grace}), then removes the subtree, deepest directories first.
   */
  void remove(Duration grace) throws IOException, InterruptedException {
    if (!Files.isDirectory(directory)) {
      return;
    }
    long deadline = System.nanoTime() + grace.toNanos();
    while (populated() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    if (populated() && Files.exists(directory.resolve("cgroup.kill"))) {
      Files.writeString(directory.resolve("cgroup.kill"), "1");
      long killDeadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (populated() && System.nanoTime() < killDeadline) {
        Thread.sleep(20);
      }
    }
    List<Path> directories;
    try (Stream<Path> tree = Files.walk(directory)) {
      directories = tree.filter(Files::isDirectory)
          .sorted(Comparator.comparingInt(Path::getNameCount).reversed())
          .toList();
    }
    for (Path cgroup : directories) {
      Files.delete(cgroup);
    }
  }
}
