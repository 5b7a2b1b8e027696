package dev.noneops.cli;

import picocli.CommandLine.Command;

/**
 * {@code noneops demo} in the CLI's jar: the demo (module {@code demo}) runs the CLI on the
 * testkit's simulated host or a sandboxed systemd, so it is not in this jar; {@code bin/noneops
 * demo} in a checkout of the repository runs it. Listed in {@code --help} so it can be found;
 * run here it says in one line where it runs (exit 2).
 */
@Command(
    name = "demo",
    header = "The lifecycle told, with no node: bin/noneops demo",
    description =
        "Tells the node's whole lifecycle (bootstrap, upgrades, a rollback, a power cut healed at the next boot, a reset) on a simulated host, or as root on a sandboxed real systemd, which it asks before it boots (--yes: without asking). It runs from a checkout of the repository, not from this build: bin/noneops demo --help.",
    footerHeading = "%nExamples:%n",
    footer = {"  bin/noneops demo", "  sudo bin/noneops demo --yes"})
public final class DemoPointerCommand extends CliCommand {
  @Override
  protected ExitCode execute() {
    throw new CliException(
        ExitCode.USAGE,
        "the demo is not in this build; run it from a checkout of the repository: bin/noneops"
            + " demo");
  }
}
