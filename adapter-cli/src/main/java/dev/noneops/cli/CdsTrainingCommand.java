package dev.noneops.cli;

import dev.noneops.cli.output.Json;
import dev.noneops.cli.output.ProgressPrinter;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.systemd.SystemdException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLogger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Hidden: the training run {@code bin/noneops} uses to build the class-data sharing archive.
 * Loads what every invocation loads — the help of every command, the JSON writer, progress
 * rendering, the host adapters, one unit-status call to systemd (which may fail: where systemd
 * runs it is answered, and the composition root connects the training run to a bus without one),
 * one answer of a daemon's socket, as {@code status} asks it, and {@code status} and {@code
 * allocation-launch-check} inspected from this process ({@link DirectInspection}) — and prints
 * nothing.
 */
@Command(
    name = CdsTrainingCommand.NAME,
    hidden = true,
    description = "Load the CLI's common classes for a class-data sharing archive.")
public final class CdsTrainingCommand extends CliCommand {
  /** The command's name, which {@code bin/noneops} runs. */
  public static final String NAME = "cds-training";

  @Override
  protected ExitCode execute() throws Exception {
    StringWriter sink = new StringWriter();
    PrintWriter writer = new PrintWriter(sink);
    CommandLine cli = spec.root().commandLine();
    cli.getCommandSpec().commandLine().usage(writer);
    for (CommandLine sub : cli.getSubcommands().values()) {
      sub.usage(writer);
    }
    Json.print(
        writer,
        "cds-training",
        new VersionCommand.VersionReport(
            BuildVersionProvider.buildIdentity(), Runtime.version().toString()));
    ProgressPrinter progress = new ProgressPrinter(writer, false);
    progress.onEvent(new NodeEvent(
        Instant.now(),
        "training",
        NodeEvent.Kind.COMPLETED,
        Duration.ofMillis(1),
        Optional.empty(),
        Map.of()));
    try (HostSession session = environment().host().connect()) {
      session.ports().facts().read();
      session.ports().files().exists(session.layout().current());
      // exists and lstat are plain NIO; lstat's mount id binds statx and, with it, jnr-posix,
      // which every mutating command needs
      session.ports().files().lstat(Path.of("/"));
      try {
        session.ports().systemd().status(HostPaths.STACK_UNITS.get(0));
      } catch (SystemdException e) {
        // Expected where no systemd answers (the composition root's training bus runs none): the
        // D-Bus client's classes are loaded by the time the call fails.
      }
    }
    trainDaemonAnswers();
    trainDirectInspections();
    LoggerFactory.getLogger(CdsTrainingCommand.class).debug("training run done");
    return ExitCode.OK;
  }

  /**
   * The command's own path of {@code status} and {@code allocation-launch-check} where no daemon
   * answers ({@link DirectInspection}), over this run's host: a read-only session, the node's
   * files (an installed node's, where the agent's archive is made) and its units where systemd
   * answers; the text and the JSON report. Read-only; what they print is dropped.
   */
  private void trainDirectInspections() {
    for (Inspection what : Inspection.values()) {
      for (List<String> args : List.of(
          List.of(what.command(), DirectOption.NAME),
          List.of(what.command(), DirectOption.NAME, "--json"))) {
        DirectInspection.run(
            args, environment(), OutputStream.nullOutputStream(), OutputStream.nullOutputStream());
      }
    }
  }

  /**
   * The fast path of {@code status} ({@link DaemonAnswers}) and the daemon's side of it: a server
   * on a socket in a scratch directory, answered once.
   */
  private void trainDaemonAnswers() throws IOException {
    Path scratch = Files.createTempDirectory("noneops-cds-");
    Path run = scratch.resolve("run");
    Path socket = run.resolve("daemon.sock");
    try (DaemonAnswerServer server = DaemonAnswerServer.start(
        socket,
        BuildVersionProvider.buildIdentity(),
        (what, json) -> new InspectionReport(ExitCode.OK, what.command() + "\n"),
        NOPLogger.NOP_LOGGER,
        Duration.ofSeconds(1))) {
      DaemonAnswers.answer(
          List.of(Inspection.STATUS.command()),
          BuildVersionProvider.buildIdentity(),
          socket,
          OutputStream.nullOutputStream(),
          why -> {});
    } finally {
      Files.deleteIfExists(socket);
      Files.deleteIfExists(run);
      Files.deleteIfExists(scratch);
    }
  }
}
