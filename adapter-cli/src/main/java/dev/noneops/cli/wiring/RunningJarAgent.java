package dev.noneops.cli.wiring;

import dev.noneops.cli.AgentBuilds;
import dev.noneops.core.node.AgentSetup;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * This process's own jar as the agent build a bootstrap installs: its id is the build version and
 * the first 12 hex digits of the jar's SHA-256, it runs with the java running this process, and
 * with the JVM options of {@code bin/noneops} (C1 only, the serial GC with a small capped heap,
 * the opens jnr-posix needs, and on JDK 17 to 21 processes started by {@code vfork}: see {@link
 * #jvmOptions}); its man pages are those the build packed into the jar.
 */
final class RunningJarAgent implements AgentBuilds {
  /**
   * Starts child processes with {@code vfork} and {@code exec} of the command itself, instead of
   * the default {@code posix_spawn} of {@code jspawnhelper}, which then execs the command: one
   * {@code exec} less for each of the agent's short {@code ip}, {@code ss} and {@code ctr}
   * processes. Supported on Linux by JDK 17 to 21 (the default until JDK 14); JDK 25 deprecates it
   * with a warning, and a JDK without it would refuse every process start.
   */
  static final String VFORK = "-Djdk.lang.Process.launchMechanism=VFORK";

  /** The last JDK feature release {@link #VFORK} is used with. */
  static final int LAST_VFORK_FEATURE = 21;

  private static final List<String> JVM_OPTIONS = List.of(
      "-XX:TieredStopAtLevel=1",
      "-XX:+UseSerialGC",
      "-XX:-UsePerfData",
      "-Xms8m",
      "-Xmx256m",
      "-Xlog:disable",
      "-Xlog:all=warning:stderr",
      "--add-opens",
      "java.base/java.io=ALL-UNNAMED",
      "--add-opens",
      "java.base/sun.nio.ch=ALL-UNNAMED",
      "-Djnr.ffi.asm.enabled=false");

  private static final String MAN_PAGES = "man/man1/";

  private final String buildVersion;

  RunningJarAgent(String buildVersion) {
    this.buildVersion = buildVersion;
  }

  @Override
  public Optional<AgentSetup> forConfig(Path configFile) throws IOException {
    Optional<Path> jar = runningJar();
    if (jar.isEmpty()) {
      return Optional.empty();
    }
    byte[] bytes = Files.readAllBytes(jar.get());
    String digest = HexFormat.of().formatHex(sha256(bytes)).substring(0, 12);
    String version = buildVersion.replaceAll("[^A-Za-z0-9._-]", "_");
    Path java = java();
    Path jarFile = jar.get();
    return Optional.of(new AgentSetup(
        version + "-" + digest,
        () -> bytes,
        java,
        jvmOptions(Runtime.version().feature()),
        configFile.toAbsolutePath(),
        () -> manPages(jarFile)));
  }

  /** The agent's JVM options on a JDK of {@code feature} release: {@link #VFORK} on 17 to 21 only. */
  static List<String> jvmOptions(int feature) {
    if (feature > LAST_VFORK_FEATURE) {
      return JVM_OPTIONS;
    }
    List<String> options = new ArrayList<>(JVM_OPTIONS);
    options.add(VFORK);
    return List.copyOf(options);
  }

  /** The man pages the build packed into the jar ({@code man/man1/*.1}), by file name. */
  static Map<String, byte[]> manPages(Path jar) throws IOException {
    Map<String, byte[]> pages = new TreeMap<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (JarEntry entry : Collections.list(file.entries())) {
        String name = entry.getName();
        if (!entry.isDirectory()
            && name.startsWith(MAN_PAGES)
            && name.endsWith(".1")
            && name.indexOf('/', MAN_PAGES.length()) < 0) {
          try (InputStream in = file.getInputStream(entry)) {
            pages.put(name.substring(MAN_PAGES.length()), in.readAllBytes());
          }
        }
      }
    }
    return pages;
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** The jar this class was loaded from; empty when it runs from a directory of classes. */
  static Optional<Path> runningJar() {
    CodeSource source = RunningJarAgent.class.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      return Optional.empty();
    }
    try {
      Path path = Path.of(source.getLocation().toURI());
      return Files.isRegularFile(path) && path.toString().endsWith(".jar")
          ? Optional.of(path)
          : Optional.empty();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
