package dev.noneops.core.node;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The agent build a bootstrap installs at a stable host path ({@code /usr/local/lib/noneops/<build>},
 * with {@code /usr/local/bin/noneops} linking to it), so that the recovery gate and the agent's
 * daemon unit can run it at every boot, long after the checkout or download the bootstrap ran
 * from is gone.
 *
 * @param buildId names the build: letters, digits, {@code .}, {@code _} and {@code -}, for example
 *     {@code 0.1.0-1a2b3c4d5e6f} (a version and a digest of the jar)
 * @param jar reads the build's runnable jar
 * @param java the absolute path of the {@code java} launcher the agent runs with
 * @param jvmOptions the JVM options placed before {@code -jar}
 * @param configFile the absolute path of the desired configuration file the daemon watches
 * @param manPages reads the build's man pages, installed where {@code man} finds them
 */
public record AgentSetup(
    String buildId,
    JarSource jar,
    Path java,
    List<String> jvmOptions,
    Path configFile,
    ManPageSource manPages) {
  private static final Pattern BUILD_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  /** Reads the bytes of the build's runnable jar. */
  @FunctionalInterface
  public interface JarSource {
    byte[] read() throws IOException;
  }

  /**
   * Reads the build's section-1 man pages: file name ({@code noneops-status.1}) to content. A
   * name is letters, digits, {@code .}, {@code _} and {@code -}, ending in {@code .1}.
   */
  @FunctionalInterface
  public interface ManPageSource {
    /** A build without man pages. */
    ManPageSource NONE = Map::of;

    Map<String, byte[]> read() throws IOException;
  }

  /** A build without man pages. */
  public AgentSetup(
      String buildId, JarSource jar, Path java, List<String> jvmOptions, Path configFile) {
    this(buildId, jar, java, jvmOptions, configFile, ManPageSource.NONE);
  }

  public AgentSetup {
    Objects.requireNonNull(buildId, "buildId");
    Objects.requireNonNull(jar, "jar");
    Objects.requireNonNull(java, "java");
    Objects.requireNonNull(configFile, "configFile");
    Objects.requireNonNull(manPages, "manPages");
    jvmOptions = List.copyOf(jvmOptions);
    if (!BUILD_ID.matcher(buildId).matches()) {
      throw new IllegalArgumentException(
          "not an agent build id (letters, digits, '.', '_', '-'): '" + buildId + "'");
    }
    if (!java.isAbsolute() || !configFile.isAbsolute()) {
      throw new IllegalArgumentException(
          "the agent's java and configuration file must be absolute paths: " + java + ", "
              + configFile);
    }
    if (java.toString().indexOf('\'') >= 0 || java.toString().indexOf('\n') >= 0) {
      throw new IllegalArgumentException("not a java path the launcher can carry: " + java);
    }
    for (String option : jvmOptions) {
      if (option.isEmpty() || option.indexOf('\'') >= 0 || option.indexOf('\n') >= 0) {
        throw new IllegalArgumentException(
            "not a JVM option the launcher can carry: '" + option + "'");
      }
    }
  }
}
