package dev.noneops.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.IVersionProvider;

/** {@code noneops --version}: the build's version as recorded in the jar's manifest. */
public final class BuildVersionProvider implements IVersionProvider {

  /** The version of this build, or {@code dev} when running from classes rather than a jar. */
  public static String buildVersion() {
    String v = BuildVersionProvider.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  /**
   * What tells this build from any other, even of the same version: the version and the instant
   * the build made its jar ({@code dev/noneops/cli/build-id}, written by the build), which the
   * CLI and the daemon compare before one answers for the other; the version alone when running
   * from classes the build did not stamp.
   */
  public static String buildIdentity() {
    String version = buildVersion();
    try (InputStream in = BuildVersionProvider.class.getResourceAsStream("build-id")) {
      if (in == null) {
        return version;
      }
      String id = new String(in.readNBytes(64), StandardCharsets.US_ASCII).strip();
      return id.isEmpty() || id.startsWith("$") ? version : version + "+" + id;
    } catch (IOException e) {
      return version;
    }
  }

  @Override
  public String[] getVersion() {
    return new String[] {"noneops " + buildVersion()};
  }
}
