package dev.noneops.testkit.system;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The root directory of a sandboxed systemd seen from the host ({@code /proc/<pid>/root}), and
 * the translation of the absolute paths a node uses ({@code /opt/unbounded/node},
 * {@code /etc/systemd/system}, ...) to the same files reached from the host. A node driven through
 * ports rooted here writes exactly the paths it writes on a real host, so the units the sandbox's
 * systemd loads are byte for byte the ones the node wrote.
 *
 * @param pid the host pid of the sandbox's PID 1
 */
public record SandboxRoot(long pid) {

  public SandboxRoot {
    if (pid <= 1) {
      throw new IllegalArgumentException("not a sandbox's PID 1 seen from the host: " + pid);
    }
  }

  /** {@code /proc/<pid>/root}. */
  public Path root() {
    return Path.of("/proc", Long.toString(pid), "root");
  }

  /** Where the sandbox's {@code absolute} is seen from the host. */
  public Path outside(Path absolute) {
    Objects.requireNonNull(absolute, "path");
    if (!absolute.isAbsolute()) {
      throw new IllegalArgumentException("paths must be absolute: " + absolute);
    }
    Path normal = absolute.normalize();
    return normal.getNameCount() == 0
        ? root()
        : root().resolve(normal.toString().substring(1));
  }

  /** The sandbox's path of {@code outside}, a path below {@link #root()}. */
  public Path inside(Path outside) {
    Path relative = root().relativize(outside);
    if (relative.startsWith("..")) {
      throw new IllegalArgumentException(outside + " is not below " + root());
    }
    return Path.of("/").resolve(relative);
  }

  /** The sandbox's system bus address. */
  public String busAddress() {
    return "unix:path=" + outside(Path.of("/run/dbus/system_bus_socket"));
  }
}
