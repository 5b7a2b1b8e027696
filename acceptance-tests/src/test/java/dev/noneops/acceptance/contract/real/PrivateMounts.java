package dev.noneops.acceptance.contract.real;

import dev.noneops.hostfs.mounts.MountInfoParser;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.testkit.contract.MountFixture;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Real mounts for the contract suites, made only as root inside the private mount namespace that
 * {@code .ci/surefire-jvm-unshare.sh} forks the test JVM into, and only below a test's own
 * temporary directory. Where that namespace is missing no mount fixture exists at all, so nothing
 * is ever mounted in the namespace the build was started from.
 */
final class PrivateMounts implements MountFixture {

  private final Path top;

  private PrivateMounts(Path top) {
    this.top = top;
  }

  /** A fixture mounting below {@code scratch}, or empty with the reason when this JVM may not mount. */
  static Optional<PrivateMounts> below(Path scratch) throws IOException {
    return whyNot().isEmpty()
        ? Optional.of(new PrivateMounts(scratch.toRealPath()))
        : Optional.empty();
  }

  /** Why this JVM may not mount, or empty when it may. */
  static String whyNot() throws IOException {
    int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    if (uid != 0) {
      return "mounting needs root; this JVM runs as uid " + uid;
    }
    String outer = System.getenv("NONEOPS_OUTER_MOUNT_NS");
    if (outer == null || outer.isBlank()) {
      return "the test JVM was not started by .ci/surefire-jvm-unshare.sh";
    }
    String own = Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")).toString();
    if (own.equals(outer)) {
      return "the test JVM shares its launcher's mount namespace (unshare was unavailable)";
    }
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.ISO_8859_1)) {
      String[] f = line.split(" ");
      for (int i = 6; i < f.length && !f[i].equals("-"); i++) {
        if (f[i].startsWith("shared:")) {
          return "a mount of this namespace still propagates to a peer group: " + f[4];
        }
      }
    }
    return "";
  }

  @Override
  public void mountFilesystem(Path at) throws Exception {
    run("mount", "-t", "tmpfs", "-o", "size=8m", "noneops-contract", inside(at).toString());
  }

  @Override
  public void bindMount(Path source, Path at) throws Exception {
    run("mount", "--bind", inside(source).toString(), inside(at).toString());
  }

  @Override
  public AutoCloseable keepBusy(Path mountPoint) throws Exception {
    FileChannel open = FileChannel.open(inside(mountPoint), StandardOpenOption.READ);
    return open::close;
  }

  /** Lazily detaches every mount below the scratch directory, deepest first. */
  void detachAll() throws IOException, InterruptedException {
    List<Path> points = new ArrayList<>();
    for (MountEntry m :
        MountInfoParser.parse(Files.readAllBytes(Path.of("/proc/self/mountinfo")))) {
      if (m.mountPoint().startsWith(top) && !m.mountPoint().equals(top)) {
        points.add(m.mountPoint());
      }
    }
    points.sort(Comparator.comparingInt(Path::getNameCount).reversed());
    for (Path point : points) {
      Process p = new ProcessBuilder("umount", "--lazy", point.toString())
          .redirectErrorStream(true)
          .start();
      p.getInputStream().readAllBytes();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private Path inside(Path path) throws IOException {
    Path real = path.getParent().toRealPath().resolve(path.getFileName());
    if (!real.startsWith(top)) {
      throw new IllegalArgumentException(
          "refusing to mount outside the test's directory " + top + ": " + path);
    }
    return real;
  }

  private static void run(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", argv) + " failed: " + output);
    }
  }
}
