package dev.noneops.cli.wiring;

import dev.noneops.cli.BuildVersionProvider;
import dev.noneops.cli.CliEnvironment;
import dev.noneops.cli.NoneopsCli;
import java.util.List;

/**
 * The composition root of the {@code noneops} CLI: configures logging, wires the real host
 * (kernel and D-Bus adapters) into the commands, runs them, and exits with their code. The only
 * {@code System.exit} of the CLI is here.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    Logging.configure(List.of(args));
    System.exit(NoneopsCli.commandLine(realHost(), args).execute(args));
  }

  /** The environment of the real host: this machine's kernel and system bus. */
  public static CliEnvironment realHost() {
    return new CliEnvironment(new RealHostConnector(), Privileges::isRoot, BuildVersionProvider.buildVersion());
  }
}
