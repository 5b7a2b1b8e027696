package dev.noneops.testkit.system;

import dev.noneops.ports.process.ProcessIdentity;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The real process table narrowed to the sandbox's processes (those in its PID namespace), so
 * nothing the node signals can be a host process. Pids are host pids (what {@code kill} needs);
 * an executable's path is the sandbox's (the kernel reports it relative to the process's own
 * root); the cgroup is made relative to the sandbox's cgroup namespace, as the node would see it
 * inside.
 */
public final class SandboxProcessTable implements ProcessTable {
  private final ProcessTable host;
  private final SandboxRoot root;
  private final String pidNamespace;
  private final String cgroupPrefix;

  public SandboxProcessTable(ProcessTable host, SandboxRoot root) throws IOException {
    this.host = Objects.requireNonNull(host, "host");
    this.root = Objects.requireNonNull(root, "root");
    this.pidNamespace = pidNamespace(root.pid())
        .orElseThrow(() -> new IOException("sandbox pid " + root.pid() + " is gone"));
    this.cgroupPrefix = cgroupPrefixOf(root.pid());
  }

  @Override
  public List<ProcessInfo> list() throws IOException {
    return host.list().stream()
        .filter(p -> inSandbox(p.pid()))
        .map(this::translate)
        .toList();
  }

  @Override
  public Optional<ProcessInfo> get(long pid) throws IOException {
    return inSandbox(pid) ? host.get(pid).map(this::translate) : Optional.empty();
  }

  /** The calling process, which need not be one of the sandbox's (a test drives the node from outside). */
  @Override
  public ProcessIdentity self() throws IOException {
    return host.self();
  }

  /** Any process's identity, the calling process's included (reading it signals nothing). */
  @Override
  public Optional<ProcessIdentity> identity(long pid) throws IOException {
    return host.identity(pid);
  }

  @Override
  public boolean signal(long pid, int signal) throws IOException {
    if (!inSandbox(pid)) {
      throw new IOException("refusing to signal pid " + pid
          + ": it is not a process of the sandbox (pid " + root.pid() + ")");
    }
    return host.signal(pid, signal);
  }

  private boolean inSandbox(long pid) {
    return pidNamespace(pid).map(pidNamespace::equals).orElse(false);
  }

  private ProcessInfo translate(ProcessInfo p) {
    String cgroup = p.cgroup();
    if (!cgroupPrefix.isEmpty()
        && (cgroup.equals(cgroupPrefix) || cgroup.startsWith(cgroupPrefix + "/"))) {
      cgroup = cgroup.equals(cgroupPrefix) ? "/" : cgroup.substring(cgroupPrefix.length());
    }
    return new ProcessInfo(p.pid(), p.exe(), p.argv(), cgroup, p.mappedFiles());
  }

  private static Optional<String> pidNamespace(long pid) {
    try {
      return Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "pid"))
          .toString());
    } catch (IOException gone) {
      return Optional.empty();
    }
  }

  /**
   * The host's path of the sandbox's cgroup namespace root: its PID 1's cgroup without the
   * {@code /init.scope} that systemd moves itself into.
   */
  private static String cgroupPrefixOf(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
      if (line.startsWith("0::")) {
        String path = line.substring(3);
        return path.endsWith("/init.scope")
            ? path.substring(0, path.length() - "/init.scope".length())
            : path;
      }
    }
    return "";
  }
}
