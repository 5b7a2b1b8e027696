package dev.noneops.cli;

import dev.noneops.cli.output.Json;
import dev.noneops.cli.output.ProgressPrinter;
import dev.noneops.ports.events.NodeEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Hidden: the training run {@code bin/noneops} uses to build the class-data sharing archive.
 * Loads what every invocation loads — the help of every command, the JSON writer, progress
 * rendering, the host adapters (without connecting to systemd) — and prints nothing.
 */
@Command(name = "cds-training", hidden = true, description = "Load the CLI's common classes for a class-data sharing archive.")
public final class CdsTrainingCommand extends CliCommand {

  @Override
  protected ExitCode execute() throws Exception {
    StringWriter sink = new StringWriter();
    PrintWriter writer = new PrintWriter(sink);
    CommandLine cli = spec.root().commandLine();
    cli.getCommandSpec().commandLine().usage(writer);
    for (CommandLine sub : cli.getSubcommands().values()) {
      sub.usage(writer);
    }
    Json.print(writer, "cds-training", new VersionCommand.VersionReport(environment().buildVersion(), Runtime.version().toString()));
    ProgressPrinter progress = new ProgressPrinter(writer, false);
    progress.onEvent(new NodeEvent(Instant.now(), "training", NodeEvent.Kind.COMPLETED, Duration.ofMillis(1), Optional.empty(), Map.of()));
    try (HostSession session = environment().host().connect()) {
      session.ports().facts().read();
      session.ports().files().exists(session.layout().current());
    }
    org.slf4j.LoggerFactory.getLogger(CdsTrainingCommand.class).debug("training run done");
    return ExitCode.OK;
  }
}
