package dev.noneops.acceptance.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A private subtree of the machine's real cgroup v2 hierarchy, e.g.
 * {@code /sys/fs/cgroup/noneops-teardown-<id>}, acting as the teardown's cgroup root: the node's
 * {@code /kubepods.slice} is created below it, so the real kernel kills and removes cgroups while
 * nothing outside the subtree is ever touched. Removed (deepest first) at the end.
 */
final class TestCgroup implements AutoCloseable {
  private final Path root;

  private TestCgroup(Path root) {
    this.root = root;
  }

  /** The subtree, or why the machine offers none (no unified hierarchy, or not writable). */
  static Outcome create() throws IOException {
    Optional<Path> unified = unifiedMount();
    if (unified.isEmpty()) {
      return new Outcome(null, "no cgroup2 file system is mounted on this machine");
    }
    if (!Files.isRegularFile(unified.get().resolve("cgroup.procs"))) {
      return new Outcome(null, "the cgroup2 mount " + unified.get() + " has no cgroup.procs");
    }
    Path root =
        unified.get().resolve("noneops-teardown-" + UUID.randomUUID().toString().substring(0, 8));
    try {
      Files.createDirectory(root);
    } catch (IOException e) {
      return new Outcome(null, "cannot create a cgroup below " + unified.get() + ": " + e);
    }
    if (!Files.exists(root.resolve("cgroup.kill"))) {
      Files.delete(root);
      return new Outcome(null, "the kernel has no cgroup.kill (before 5.14)");
    }
    return new Outcome(new TestCgroup(root), "");
  }

  /** The subtree, or the reason there is none. */
  record Outcome(TestCgroup cgroup, String whyNot) {}

  /** The directory acting as the teardown's cgroup root. */
  Path root() {
    return root;
  }

  /** Creates {@code cgroup} (relative to this root, starting with /) and moves {@code pid} into it. */
  void place(long pid, String cgroup) throws IOException {
    Path dir = root.resolve(cgroup.substring(1));
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid), StandardCharsets.US_ASCII);
  }

  boolean exists(String cgroup) {
    return Files.isDirectory(root.resolve(cgroup.substring(1)));
  }

  /** The cgroup path {@code /proc/<pid>/cgroup} shows for a cgroup of this subtree. */
  String absolute(String cgroup) throws IOException {
    Path unified = unifiedMount().orElseThrow();
    return "/" + unified.relativize(root.resolve(cgroup.substring(1)));
  }

  @Override
  public void close() throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    List<Path> dirs = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isDirectory).forEach(dirs::add);
    }
    dirs.sort(Comparator.comparingInt(Path::getNameCount).reversed());
    for (Path dir : dirs) {
      try {
        Files.delete(dir);
      } catch (IOException e) {
        // a cgroup still holding a process the test started: the process is ended by the test's own
        // cleanup
      }
    }
  }

  private static Optional<Path> unifiedMount() throws IOException {
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
      String[] f = line.split(" ");
      int dash = List.of(f).indexOf("-");
      if (dash > 0 && dash + 1 < f.length && f[dash + 1].equals("cgroup2")) {
        return Optional.of(Path.of(f[4]));
      }
    }
    return Optional.empty();
  }
}
