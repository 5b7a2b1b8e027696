package dev.noneops.cli;

import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.AgentUpdate;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops update-agent}: makes this build the running node's agent and restarts the daemon
 * on it, touching nothing else. The Debian package's {@code postinst} runs it after an upgrade of
 * the package, so the daemon runs the build the package installed.
 */
@Command(
    name = "update-agent",
    header = "Make this build the node's agent",
    description =
        "Install this build as the node's agent (its recovery gate and its daemon) and restart the daemon on it when it is another build; the configuration file the daemon follows (--config) is read and checked first. The stack, its version and its configuration are left as they are. An upgrade of the noneops package runs it on a bootstrapped node; a node bootstrapped with --no-agent is left alone.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  noneops update-agent",
      "  noneops update-agent --config /etc/unbounded/agent/config.json"
    })
public final class UpdateAgentCommand extends CliCommand {
  @Mixin
  LockTimeoutOption lock;

  @Override
  protected Duration lockTimeout() {
    return lock.timeout();
  }

  @Mixin
  ConfigOption config;

  /** The JSON document of {@code update-agent --json}. */
  public record UpdateAgentReport(boolean ok, AgentUpdate result, String build) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    Optional<AgentSetup> agent = environment().agent().forConfig(config.file());
    if (agent.isEmpty()) {
      throw new CliException(
          ExitCode.FAILURE,
          "this noneops does not run from its jar, so there is no build to install");
    }
    try (NodeContext ctx = openNode()) {
      // the daemon follows this file: checked as a bootstrap checks it, before anything changes
      ctx.readConfig(config.file());
      AgentUpdate result = ctx.node(Optional.empty(), Optional.empty(), agent).updateAgent();
      UpdateAgentReport report = new UpdateAgentReport(true, result, agent.get().buildId());
      if (json()) {
        printJson(report);
      } else {
        out()
            .println(
                switch (result) {
                  case INSTALLED ->
                    "the node's agent is now build " + report.build()
                        + "; its daemon restarted on it";
                  case UNCHANGED -> "the node's agent is build " + report.build() + " already";
                  case NO_AGENT ->
                    "the node was bootstrapped without its agent (--no-agent); nothing to update";
                });
      }
      return ExitCode.OK;
    }
  }
}
