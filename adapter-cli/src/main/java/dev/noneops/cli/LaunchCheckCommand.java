package dev.noneops.cli;

import dev.noneops.core.layout.NodeConstants;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops allocation-launch-check} ({@code LaunchCheckCommand}): the command kubelet's
 * allocation launch check runs. Exits 0 only when the stack is healthy — its units active,
 * {@code current} a complete and verified version, no upgrade in flight — and otherwise names
 * every problem (a {@code current} that is not a symlink into the layout, or a damaged journal,
 * is one of them). Answered by the running agent's daemon as {@link StatusCommand} is.
 */
@Command(
    name = NodeConstants.LAUNCH_CHECK_COMMAND,
    header = "Exit 0 only when the node is healthy",
    description =
        "Healthy: the units active, 'current' a complete verified version, no upgrade in flight. Otherwise list every problem and exit 7. Run by kubelet's allocation launch check.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops allocation-launch-check", "  noneops --json allocation-launch-check"})
public final class LaunchCheckCommand extends CliCommand {
  @Mixin
  DirectOption direct;

  @Override
  protected ExitCode execute() throws Exception {
    return inspect(Inspection.LAUNCH_CHECK, direct);
  }
}
