package dev.noneops.core.node.internal.teardown;

import dev.noneops.ports.process.ProcessInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Tells this node's container shims from everyone else's by ownership, not by binary name alone:
 * a process is this node's shim when it is a containerd shim ({@code containerd-shim*}, v1, v2 or
 * third-party), its argv names this node's containerd address and the Kubernetes namespace (or its
 * executable lies under the layout, which covers shims whose argv is unusual), no flag names a
 * different address or namespace, and its cgroup is one of the node's (the pods' or
 * containerd.service's). A shim of Docker ({@code moby} namespace) or of another containerd
 * ({@code -address} elsewhere) is never this node's, whatever binary it runs.
 *
 * <p>The containerd address alone is no proof on a host where a containerd that does not run
 * from the layout serves that socket (a distribution's containerd on the default socket): its
 * shims name the same address. Such shims are this node's only by their executable.
 */
public final class ShimIdentity {
  /** The containerd namespace kubelet's CRI uses. */
  public static final String KUBERNETES_NAMESPACE = "k8s.io";

  private static final String DELETED_SUFFIX = " (deleted)";
  /** Where containerd listens when no {@code --address} is given. */
  private static final String DEFAULT_ADDRESS = "/run/containerd/containerd.sock";

  /** What a process is to this node. */
  public enum Verdict {
    /** Not a containerd shim at all. */
    NOT_A_SHIM,
    /** This node's shim: it may be ended. */
    OURS,
    /** Another runtime's shim (another containerd address or namespace). */
    FOREIGN,
    /** On this node's address, but a containerd not from the layout serves it, and not run from the layout. */
    SERVED_BY_FOREIGN_CONTAINERD,
    /** Carries this node's address or binary but runs outside the node's cgroups. */
    OUTSIDE_NODE_CGROUPS
  }

  private final String address;
  private final Path layoutRoot;
  private final Optional<String> foreignServer;

  /**
   * @param containerdAddress this node's containerd socket, {@code /run/containerd/containerd.sock}
   *     below the host root
   * @param layoutRoot the agent-owned layout, where this node's shim binaries live
   */
  public ShimIdentity(Path containerdAddress, Path layoutRoot) {
    this(
        containerdAddress.normalize().toString(),
        Objects.requireNonNull(layoutRoot, "layoutRoot").normalize(),
        Optional.empty());
  }

  private ShimIdentity(String address, Path layoutRoot, Optional<String> foreignServer) {
    this.address = address;
    this.layoutRoot = layoutRoot;
    this.foreignServer = foreignServer;
  }

  /**
   * This identity with what {@code processes} show about the containerd serving this node's
   * address: when one runs that is not from the layout, its socket proves nothing.
   */
  public ShimIdentity seeing(List<ProcessInfo> processes) {
    for (ProcessInfo process : processes) {
      if (!isContainerdDaemon(process)) {
        continue;
      }
      String served = flag(process.argv(), "address")
          .or(() -> flag(process.argv(), "a"))
          .map(ShimIdentity::stripUnixScheme)
          .orElse(DEFAULT_ADDRESS);
      boolean fromLayout = executable(process).map(this::underLayout).orElse(false);
      if (samePath(served, address) && !fromLayout) {
        return new ShimIdentity(
            address,
            layoutRoot,
            Optional.of("pid " + process.pid() + " "
                + executable(process).orElse(process.argv().get(0))));
      }
    }
    return this;
  }

  /** The containerd serving this node's address that does not run from the layout, if one does. */
  public Optional<String> foreignServer() {
    return foreignServer;
  }

  public Verdict classify(ProcessInfo process) {
    if (!isShim(process)) {
      return Verdict.NOT_A_SHIM;
    }
    List<String> argv = process.argv();
    Optional<String> addressFlag = flag(argv, "address").map(ShimIdentity::stripUnixScheme);
    Optional<String> namespaceFlag = flag(argv, "namespace");
    if (addressFlag.isPresent() && !samePath(addressFlag.get(), address)) {
      return Verdict.FOREIGN;
    }
    if (namespaceFlag.isPresent() && !namespaceFlag.get().equals(KUBERNETES_NAMESPACE)) {
      return Verdict.FOREIGN;
    }
    boolean byArgv = addressFlag.isPresent() && namespaceFlag.isPresent();
    boolean byExecutable = executable(process).map(this::underLayout).orElse(false);
    if (!byArgv && !byExecutable) {
      return Verdict.FOREIGN;
    }
    if (!byExecutable && foreignServer.isPresent()) {
      return Verdict.SERVED_BY_FOREIGN_CONTAINERD;
    }
    return inNodeCgroup(process.cgroup()) ? Verdict.OURS : Verdict.OUTSIDE_NODE_CGROUPS;
  }

  /**
   * Whether {@code cgroup} is one of the node's: below a {@code kubepods} cgroup (systemd or
   * cgroupfs driver) or containerd.service's. Matched on whole path segments anywhere in the path,
   * so a node whose cgroups are nested (a host running in a container without a cgroup namespace)
   * still matches. An unknown cgroup (no unified hierarchy) is not evidence against.
   */
  public static boolean inNodeCgroup(String cgroup) {
    if (cgroup.isEmpty()) {
      return true;
    }
    String[] segments = cgroup.split("/");
    for (int i = 0; i < segments.length; i++) {
      String s = segments[i];
      if (s.equals("kubepods") || s.equals("kubepods.slice")) {
        return true;
      }
      if (s.equals("containerd.service") && i > 0 && segments[i - 1].equals("system.slice")) {
        return true;
      }
    }
    return false;
  }

  private static boolean isShim(ProcessInfo process) {
    if (!process.argv().isEmpty()
        && baseName(process.argv().get(0)).startsWith("containerd-shim")) {
      return true;
    }
    return executable(process)
        .map(exe -> baseName(exe).startsWith("containerd-shim"))
        .orElse(false);
  }

  private static boolean isContainerdDaemon(ProcessInfo process) {
    if (!process.argv().isEmpty() && baseName(process.argv().get(0)).equals("containerd")) {
      return true;
    }
    return executable(process).map(exe -> baseName(exe).equals("containerd")).orElse(false);
  }

  private static Optional<String> executable(ProcessInfo process) {
    return process
        .exe()
        .map(exe -> exe.endsWith(DELETED_SUFFIX)
            ? exe.substring(0, exe.length() - DELETED_SUFFIX.length())
            : exe);
  }

  private boolean underLayout(String exe) {
    if (!exe.startsWith("/")) {
      return false;
    }
    Path path = Path.of(exe).normalize();
    return path.startsWith(layoutRoot) && !path.equals(layoutRoot);
  }

  /** The value of {@code -name value}, {@code --name value}, {@code -name=value} or {@code --name=value}. */
  public static Optional<String> flag(List<String> argv, String name) {
    for (int i = 1; i < argv.size(); i++) {
      String arg = argv.get(i);
      String bare =
          arg.startsWith("--") ? arg.substring(2) : arg.startsWith("-") ? arg.substring(1) : null;
      if (bare == null) {
        continue;
      }
      if (bare.equals(name) && i + 1 < argv.size()) {
        return Optional.of(argv.get(i + 1));
      }
      if (bare.startsWith(name + "=")) {
        return Optional.of(bare.substring(name.length() + 1));
      }
    }
    return Optional.empty();
  }

  private static String stripUnixScheme(String address) {
    return address.startsWith("unix://") ? address.substring("unix://".length()) : address;
  }

  private static boolean samePath(String candidate, String ours) {
    if (!candidate.startsWith("/")) {
      return false;
    }
    return Path.of(candidate).normalize().toString().equals(ours);
  }

  private static String baseName(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }
}
