package dev.noneops.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code noneops --version}: the build's version as recorded in the jar's manifest. */
public final class BuildVersionProvider implements IVersionProvider {

  /** The version of this build, or {@code dev} when running from classes rather than a jar. */
  public static String buildVersion() {
    String v = BuildVersionProvider.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"noneops " + buildVersion()};
  }
}
