package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real kernel, fenced in: mounts are made only as root inside the private mount namespace
 * that {@code .ci/surefire-jvm-unshare.sh} forks the test JVM into (checked before every mount),
 * and only below the test's own temporary directory. Nothing is ever mounted in the namespace the
 * build was started from.
 */
final class KernelSandbox {
  private final Path top;

  private KernelSandbox(Path top) {
    this.top = top;
  }

  /**
   * A sandbox below {@code tempDir}. As root, a JVM outside a private mount namespace fails the
   * test (the surefire wrapper is missing, which must be fixed, not skipped); as another user the
   * test is skipped.
   */
  static KernelSandbox open(Path tempDir) throws IOException {
    int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    assumeTrue(
        uid == 0, "real-kernel teardown tests need root to mount; this JVM runs as uid " + uid);
    String outer = System.getenv("NONEOPS_OUTER_MOUNT_NS");
    String own = Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")).toString();
    assertThat(outer)
        .as(
            "the test JVM must be started by .ci/surefire-jvm-unshare.sh (surefire <jvm>) so that it mounts in a private namespace")
        .isNotBlank();
    assertThat(own)
        .as("the test JVM's mount namespace must differ from its launcher's")
        .isNotEqualTo(outer);
    assertThat(rootIsPrivate())
        .as("the root mount must not propagate to a peer group")
        .isTrue();
    return new KernelSandbox(tempDir.toRealPath());
  }

  Path top() {
    return top;
  }

  void mountTmpfs(Path dir) throws IOException, InterruptedException {
    run("mount", "-t", "tmpfs", "-o", "size=4m", "noneops-test", inside(dir).toString());
  }

  void bind(Path source, Path target) throws IOException, InterruptedException {
    run("mount", "--bind", inside(source).toString(), inside(target).toString());
  }

  /** Detaches every mount below the sandbox, deepest first (cleanup; the namespace ends with the JVM anyway). */
  void unmountAll() throws IOException, InterruptedException {
    List<Path> points = new ArrayList<>();
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
      Path point = Path.of(decode(line.split(" ")[4]));
      if (point.startsWith(top) && !point.equals(top)) {
        points.add(point);
      }
    }
    points.sort(Comparator.comparingInt(Path::getNameCount).reversed());
    for (Path point : points) {
      new ProcessBuilder("umount", "-l", point.toString())
          .redirectErrorStream(true)
          .start()
          .waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Whether something is mounted exactly at {@code dir}. */
  static boolean isMountPoint(Path dir) throws IOException {
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
      if (Path.of(decode(line.split(" ")[4])).equals(dir)) {
        return true;
      }
    }
    return false;
  }

  private Path inside(Path path) {
    Path normal = path.toAbsolutePath().normalize();
    assertThat(normal.startsWith(top))
        .as("%s lies inside the sandbox %s", normal, top)
        .isTrue();
    return normal;
  }

  private static void run(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("%s finished", List.of(argv)).isTrue();
    assertThat(p.exitValue()).as("%s: %s", List.of(argv), output).isZero();
  }

  private static boolean rootIsPrivate() throws IOException {
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
      String[] f = line.split(" ");
      if (f.length > 6 && f[4].equals("/")) {
        for (int i = 6; i < f.length && !f[i].equals("-"); i++) {
          if (f[i].startsWith("shared:")) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static String decode(String field) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length()) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
