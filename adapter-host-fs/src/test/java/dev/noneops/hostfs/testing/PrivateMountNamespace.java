package dev.noneops.hostfs.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.hostfs.mounts.MountInfoParser;
import dev.noneops.ports.mounts.MountEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Guards tests that mount: they run only as root inside the private mount namespace the surefire
 * JVM wrapper ({@code .ci/surefire-jvm-unshare.sh}) creates, and skip with the reason otherwise.
 * Nothing is ever mounted in the namespace the build was started from.
 */
public final class PrivateMountNamespace {

  private PrivateMountNamespace() {}

  /** Skips the calling test unless it runs as root in a private mount namespace with private propagation. */
  public static void assumeActive() throws IOException {
    assumeTrue(isRoot(), "mount tests need root; this JVM runs as uid " + uid());
    assumeTrue(
        inPrivateNamespace(),
        "the JVM does not run in a private mount namespace of its own (see .ci/surefire-jvm-unshare.sh)");
  }

  private static boolean inPrivateNamespace() throws IOException {
    String outer = System.getenv("NONEOPS_OUTER_MOUNT_NS");
    if (outer == null || outer.isEmpty()) {
      return false; // not started by the wrapper
    }
    String own = Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")).toString();
    // A namespace of our own, whose root mount propagates to no peer group.
    return !own.equals(outer) && rootIsPrivate();
  }

  public static boolean isRoot() throws IOException {
    return uid() == 0;
  }

  private static int uid() throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }

  private static boolean rootIsPrivate() throws IOException {
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.ISO_8859_1)) {
      String[] f = line.split(" ");
      for (int i = 6; i < f.length && !f[i].equals("-"); i++) {
        if (f[i].startsWith("shared:")) {
          return false;
        }
      }
    }
    return true;
  }

  /** Runs {@code mount} with the given arguments and fails the test when it fails. */
  public static void mount(String... args) throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>();
    argv.add("mount");
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("mount %s finished", argv).isTrue();
    assertThat(p.exitValue()).as("mount %s: %s", argv, output).isZero();
  }

  /**
   * Lazily detaches every mount at or below {@code dir}, deepest first, so the test's temporary
   * directory can be deleted. Call it from {@code @AfterEach}.
   */
  public static void detachAllBelow(Path dir) throws IOException, InterruptedException {
    if (!inPrivateNamespace()) {
      return;
    }
    Path real = dir.toRealPath();
    List<Path> mountPoints = new ArrayList<>();
    for (MountEntry m :
        MountInfoParser.parse(Files.readAllBytes(Path.of("/proc/self/mountinfo")))) {
      if (m.mountPoint().startsWith(real)) {
        mountPoints.add(m.mountPoint());
      }
    }
    mountPoints.sort(Comparator.comparingInt(Path::getNameCount).reversed());
    for (Path mountPoint : mountPoints) {
      Process p = new ProcessBuilder("umount", "--lazy", mountPoint.toString())
          .redirectErrorStream(true)
          .start();
      p.getInputStream().readAllBytes();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** A tmpfs on {@code dir}. */
  public static void mountTmpfs(Path dir) throws IOException, InterruptedException {
    mount("-t", "tmpfs", "-o", "size=8m", "noneops-test", dir.toString());
  }

  /** A bind mount of {@code source} on {@code target}. */
  public static void bind(Path source, Path target) throws IOException, InterruptedException {
    mount("--bind", source.toString(), target.toString());
  }
}
