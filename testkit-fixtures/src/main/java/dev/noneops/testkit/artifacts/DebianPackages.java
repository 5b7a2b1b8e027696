package dev.noneops.testkit.artifacts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Real binaries from Debian's packages, taken <em>without installing them</em>: {@code apt-get
 * download} into a cache directory, then {@code dpkg-deb -x} into a directory of their own.
 * Installing Debian's {@code containerd} would enable its own {@code containerd.service}, which a
 * sandboxed systemd boots in place of the node's (docs/guides/tests.md), and would leave a foreign
 * containerd on the host; extracting avoids both. Extracted trees are cached, so a second run
 * downloads nothing.
 */
public final class DebianPackages {
  private static final long TIMEOUT_SECONDS = 600;

  private final Path cache;

  public DebianPackages(Path cache) throws IOException {
    this.cache = Objects.requireNonNull(cache, "cache").toAbsolutePath().normalize();
    Files.createDirectories(this.cache);
  }

  /** The default cache, {@code ~/.cache/noneops/debian}. */
  public static DebianPackages inUserCache() throws IOException {
    return new DebianPackages(
        Path.of(System.getProperty("user.home"), ".cache", "noneops", "debian"));
  }

  /** Whether {@code apt-get} and {@code dpkg-deb} exist on this machine. */
  public static boolean toolsAvailable() {
    return Files.isExecutable(Path.of("/usr/bin/apt-get"))
        && Files.isExecutable(Path.of("/usr/bin/dpkg-deb"));
  }

  /**
   * The extracted file tree of {@code name} at {@code version} (a Debian version such as
   * {@code 1.6.20~ds1-1+deb12u3}, or empty for the candidate version).
   *
   * @throws PackageUnavailableException when the package cannot be downloaded or extracted,
   *     with apt's own words
   */
  public Path extracted(String name, String version) throws IOException, InterruptedException {
    if (!name.matches("[a-z0-9][a-z0-9+.-]*") || !version.matches("[A-Za-z0-9.+~:-]*")) {
      throw new IllegalArgumentException(
          "not a Debian package name/version: " + name + " " + version);
    }
    String key = version.isEmpty() ? name : name + "_" + version.replace(':', '%');
    Path tree = cache.resolve(key);
    if (Files.isDirectory(tree.resolve("usr"))) {
      return tree;
    }
    if (!toolsAvailable()) {
      throw new PackageUnavailableException(
          "apt-get or dpkg-deb is not installed; cannot take " + name + " from Debian's packages");
    }
    Path downloads = Files.createDirectories(cache.resolve("debs"));
    List<String> before = debs(downloads);
    String spec = version.isEmpty() ? name : name + "=" + version;
    try {
      run(downloads, List.of("apt-get", "download", "-q", spec), "apt-get download " + spec);
    } catch (PackageUnavailableException stale) {
      // Package lists that are missing or older than the archive name files it no longer has:
      // refresh them once (as root) and try again.
      if (!"root".equals(System.getProperty("user.name"))) {
        throw stale;
      }
      run(cache, List.of("apt-get", "update", "-q"), "apt-get update");
      run(downloads, List.of("apt-get", "download", "-q", spec), "apt-get download " + spec);
    }
    Path deb = downloaded(downloads, name, version, before);
    Path tmp = Files.createTempDirectory(cache, "." + key + "-");
    run(
        cache,
        List.of("dpkg-deb", "-x", deb.toString(), tmp.toString()),
        "dpkg-deb -x " + deb.getFileName());
    Files.move(tmp, tree, StandardCopyOption.ATOMIC_MOVE);
    return tree;
  }

  /**
   * The .deb {@code apt-get download} produced: the one of the requested version when one was
   * asked for (apt names it {@code <name>_<version with : as %3a>_<arch>.deb}), else the new one.
   */
  private static Path downloaded(Path downloads, String name, String version, List<String> before)
      throws IOException {
    List<String> after = debs(downloads);
    String prefix = version.isEmpty() ? name + "_" : name + "_" + version.replace(":", "%3a") + "_";
    for (String f : after) {
      if (!before.contains(f) && f.startsWith(prefix)) {
        return downloads.resolve(f);
      }
    }
    // apt-get download leaves an already downloaded .deb in place without a new name.
    for (String f : after) {
      if (f.startsWith(prefix)) {
        return downloads.resolve(f);
      }
    }
    throw new PackageUnavailableException(
        "apt-get download reported success but left no " + name + "_*.deb in " + downloads);
  }

  private static List<String> debs(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.deb")) {
      for (Path p : s) {
        names.add(String.valueOf(p.getFileName()));
      }
    }
    names.sort(null);
    return names;
  }

  private static void run(Path dir, List<String> command, String what)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile("noneops-debian-", ".log");
    try {
      Process p = new ProcessBuilder(command)
          .directory(dir.toFile())
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .start();
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new PackageUnavailableException(
            what + " did not finish within " + TIMEOUT_SECONDS + " s");
      }
      if (p.exitValue() != 0) {
        String output = Files.readString(log, StandardCharsets.UTF_8).strip();
        throw new PackageUnavailableException(what + " failed (exit " + p.exitValue() + "): "
            + output
                .lines()
                .filter(l -> l.startsWith("E:") || l.startsWith("dpkg"))
                .findFirst()
                .orElse(output));
      }
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** A Debian package could not be had; the message says why, in apt's words when it has some. */
  public static final class PackageUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    public PackageUnavailableException(String message) {
      super(message);
    }
  }
}
