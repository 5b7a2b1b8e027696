package dev.noneops.testkit.standins;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The executables that stand in for the Kubernetes binaries in system tests and the demo: shell
 * scripts. kubelet and the LocalDNS server exec a JVM running {@link KubeletStandIn} or
 * {@link CoreDnsStandIn} from this module's classes; kubectl, kube-proxy, crictl and the CNI
 * plugins are tiny scripts that print what they are and succeed.
 *
 * @param java the {@code java} executable the scripts run
 * @param classpath where the stand-in classes are (this module's jar or class directory)
 */
public record StandInScripts(Path java, Path classpath) {

  /** The CNI plugins an artifact set ships. */
  public static final List<String> CNI_PLUGINS =
      List.of("bridge", "host-local", "loopback", "portmap");

  public StandInScripts {
    Objects.requireNonNull(java, "java");
    Objects.requireNonNull(classpath, "classpath");
  }

  /** Directories a sandboxed systemd mounts afresh, so the sandbox cannot see what is below them on the host. */
  static final List<Path> HIDDEN_IN_SANDBOX =
      List.of(Path.of("/tmp"), Path.of("/run"), Path.of("/dev"));

  /**
   * Scripts that run the stand-ins with this JVM and from where this class was loaded. When those
   * classes sit where a sandboxed systemd would not see them (a checkout below {@code /tmp}), they
   * are copied to {@code ~/.cache/noneops/standins} first.
   */
  public static StandInScripts ofThisJvm() {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    try {
      Path classes = Path.of(KubeletStandIn.class
          .getProtectionDomain()
          .getCodeSource()
          .getLocation()
          .toURI());
      return new StandInScripts(java, visibleInSandbox(classes));
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the stand-in classes: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot copy the stand-in classes where a sandbox sees them: " + e.getMessage(), e);
    }
  }

  /**
   * {@code classes} (a directory or a jar) at a path a sandboxed systemd sees: itself, or when it
   * sits below a directory the sandbox mounts its own tmpfs over ({@code /tmp}), a copy in
   * {@code ~/.cache/noneops/standins}.
   */
  public static Path visibleInSandbox(Path classes) throws IOException {
    Path absolute = classes.toAbsolutePath().normalize();
    if (HIDDEN_IN_SANDBOX.stream().noneMatch(absolute::startsWith)) {
      return absolute;
    }
    Path target = Path.of(
            System.getProperty("user.home"),
            ".cache",
            "noneops",
            "standins",
            Integer.toHexString(absolute.toString().hashCode()))
        .resolve(absolute.getFileName());
    Files.createDirectories(Objects.requireNonNull(target.getParent(), "the cache directory"));
    try (Stream<Path> tree = Files.walk(absolute)) {
      for (Path source : (Iterable<Path>) tree::iterator) {
        Path copy = target.resolve(absolute.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(copy);
        } else {
          Files.copy(source, copy, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return target;
  }

  /** kubelet: serves {@code /healthz}; never healthy when {@code neverHealthy}. */
  public String kubelet(String version, boolean neverHealthy) {
    return header("kubelet", version)
        + "exec " + quote(java.toString())
        + " -Xmx64m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp " + quote(classpath.toString())
        + " " + KubeletStandIn.class.getName()
        + (neverHealthy ? " " + KubeletStandIn.NEVER_HEALTHY_FLAG : "") + " \"$@\"\n";
  }

  /** The LocalDNS server (CoreDNS): answers DNS on its Corefile's address. */
  public String coredns(String version) {
    return header("coredns", version)
        + "exec " + quote(java.toString())
        + " -Xmx48m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp " + quote(classpath.toString())
        + " " + CoreDnsStandIn.class.getName() + " \"$@\"\n";
  }

  /** A tool that prints its name, version and arguments and exits 0 (kubectl, kube-proxy, crictl, a CNI plugin). */
  public String tool(String name, String version) {
    return header(name, version)
        + "echo \"" + name + " stand-in " + version + ": $*\"\n"
        + "exit 0\n";
  }

  private static String header(String name, String version) {
    return "#!/bin/sh\n# " + name + " " + version
        + ": a noneops test stand-in, not the real program.\n";
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
