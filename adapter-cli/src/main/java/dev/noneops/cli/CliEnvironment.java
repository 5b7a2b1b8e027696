package dev.noneops.cli;

import dev.noneops.cli.output.ProgressTerminal;
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
 * @param terminal the terminal stderr is, for live progress ({@link ProgressTerminal#NONE}: plain lines)
 * @param confirmation asks the operator on stdin's terminal ({@link Confirmation#NONE}: not one)
 * @param fleet what the agent's daemon shows a fleet: its journal and its metrics
 */
public record CliEnvironment(
    HostConnector host,
    BooleanSupplier privileged,
    String buildVersion,
    AgentBuilds agent,
    ProgressTerminal terminal,
    Confirmation confirmation,
    FleetOutputs fleet) {
  public CliEnvironment {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(privileged, "privileged");
    Objects.requireNonNull(buildVersion, "buildVersion");
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(terminal, "terminal");
    Objects.requireNonNull(confirmation, "confirmation");
    Objects.requireNonNull(fleet, "fleet");
  }

  /** An environment whose daemon shows the fleet nothing ({@link FleetOutputs#NONE}). */
  public CliEnvironment(
      HostConnector host,
      BooleanSupplier privileged,
      String buildVersion,
      AgentBuilds agent,
      ProgressTerminal terminal,
      Confirmation confirmation) {
    this(host, privileged, buildVersion, agent, terminal, confirmation, FleetOutputs.NONE);
  }

  /** An environment whose stdin is no terminal: a command that would ask refuses without --yes. */
  public CliEnvironment(
      HostConnector host,
      BooleanSupplier privileged,
      String buildVersion,
      AgentBuilds agent,
      ProgressTerminal terminal) {
    this(host, privileged, buildVersion, agent, terminal, Confirmation.NONE);
  }

  /** This environment with {@code outputs} as what the daemon shows the fleet. */
  public CliEnvironment withFleet(FleetOutputs outputs) {
    return new CliEnvironment(
        host, privileged, buildVersion, agent, terminal, confirmation, outputs);
  }

  /** An environment whose progress is plain lines, whatever stderr is. */
  public CliEnvironment(
      HostConnector host, BooleanSupplier privileged, String buildVersion, AgentBuilds agent) {
    this(host, privileged, buildVersion, agent, ProgressTerminal.NONE);
  }

  /** An environment with no agent build to install ({@link AgentBuilds#NONE}). */
  public CliEnvironment(HostConnector host, BooleanSupplier privileged, String buildVersion) {
    this(host, privileged, buildVersion, AgentBuilds.NONE);
  }
}
