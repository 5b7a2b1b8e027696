package dev.noneops.cli;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * What the commands get from the composition root: how to reach the host, whether this process
 * may change it (runs as root), and the version of this build.
 *
 * @param host opens the host the commands act on
 * @param privileged whether the process runs as root; mutating commands refuse to start otherwise
 * @param buildVersion this build's version, for {@code noneops version}
 * @param agent the agent build a bootstrap installs
 */
public record CliEnvironment(
    HostConnector host, BooleanSupplier privileged, String buildVersion, AgentBuilds agent) {
  public CliEnvironment {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(privileged, "privileged");
    Objects.requireNonNull(buildVersion, "buildVersion");
    Objects.requireNonNull(agent, "agent");
  }

  /** An environment with no agent build to install ({@link AgentBuilds#NONE}). */
  public CliEnvironment(HostConnector host, BooleanSupplier privileged, String buildVersion) {
    this(host, privileged, buildVersion, AgentBuilds.NONE);
  }
}
