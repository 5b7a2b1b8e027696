package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real processes standing in for container shims, containers and whoever keeps a mount busy. A
 * shim stand-in is a copy of perl named {@code containerd-shim-runc-v2} that sleeps; everything
 * after {@code --} is an argv a real shim would carry ({@code -namespace}, {@code -id},
 * {@code -address}), which perl ignores, so {@code /proc/<pid>/cmdline} and {@code exe} look like
 * a shim's. Only processes started here are ever ended by {@link #close()}.
 */
final class StandIns implements AutoCloseable {
  private static final Path PERL = Path.of("/usr/bin/perl");
  private static final Path SLEEP = Path.of("/bin/sleep");

  private final List<Process> started = new ArrayList<>();

  /** Copies perl to {@code path} (a shim binary: under the layout for ours, elsewhere for a foreign runtime). */
  static Path installShimBinary(Path path) throws IOException {
    assertThat(PERL)
        .as("perl (Debian's essential perl-base) stands in for shim binaries")
        .isExecutable();
    Files.createDirectories(path.getParent());
    Files.copy(PERL, path, StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    return path;
  }

  /** A shim stand-in running {@code binary} with a shim's flags. */
  Process shim(Path binary, String namespace, String id, Path address) throws IOException {
    return start(new ProcessBuilder(
        binary.toString(),
        "-e",
        "sleep 600",
        "--",
        "-namespace",
        namespace,
        "-id",
        id,
        "-address",
        address.toString()));
  }

  /** A process standing in for a container (a plain sleep). */
  Process sleeper() throws IOException {
    return start(new ProcessBuilder(SLEEP.toString(), "600"));
  }

  /** A process whose working directory is {@code dir}, which keeps the mount holding it busy. */
  Process holding(Path dir) throws IOException {
    return start(new ProcessBuilder(SLEEP.toString(), "600").directory(dir.toFile()));
  }

  private Process start(ProcessBuilder builder) throws IOException {
    Process p = builder
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    started.add(p);
    return p;
  }

  /** Ends {@code p} (one of ours) and waits for it. */
  static void end(Process p) throws InterruptedException {
    p.destroyForcibly();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("pid %d ended", p.pid()).isTrue();
  }

  /** Waits until {@code p} has ended (killed by the code under test). */
  static boolean endsWithin(Process p, long seconds) throws InterruptedException {
    return p.waitFor(seconds, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    for (Process p : started) {
      if (p.isAlive()) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
