package dev.noneops.cli;

import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The root command {@code noneops}: holds the options every subcommand shares ({@code --json},
 * {@code -v}) and the {@link CliEnvironment} the subcommands reach the host through.
 */
@Command(
    name = "noneops",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    headerHeading = "",
    header = "Runs a Kubernetes worker node's stack natively on this systemd host.",
    description =
        "Installs, reconfigures, upgrades (with automatic rollback), recovers and removes a node"
            + " whose LocalDNS, containerd, runc, CNI plugins and kubelet run as systemd units of this"
            + " host. Results go to stdout (--json for a stable, sorted schema with schemaVersion);"
            + " progress and logs go to stderr.",
    commandListHeading = "%nCommands:%n",
    exitCodeListHeading = "%nExit codes:%n")
public final class NoneopsCommand implements Runnable {

  @Option(
      names = "--json",
      scope = ScopeType.INHERIT,
      description = "Print the result as one JSON document on stdout.")
  boolean json;

  @Option(
      names = {"-v", "--verbose"},
      scope = ScopeType.INHERIT,
      description =
          "More detail on stderr: -v logs at info, -vv at debug (and stack traces of errors).")
  boolean[] verbosity = new boolean[0];

  @Spec
  CommandSpec spec;

  private final CliEnvironment environment;

  public NoneopsCommand(CliEnvironment environment) {
    this.environment = Objects.requireNonNull(environment, "environment");
  }

  public CliEnvironment environment() {
    return environment;
  }

  public boolean json() {
    return json;
  }

  public int verbosity() {
    return verbosity.length;
  }

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "a command is required (see 'noneops --help')");
  }
}
