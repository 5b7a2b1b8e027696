package dev.noneops.cli.wiring;

import dev.noneops.cli.BuildVersionProvider;
import dev.noneops.cli.CdsTrainingCommand;
import dev.noneops.cli.CliEnvironment;
import dev.noneops.cli.DaemonAnswers;
import dev.noneops.cli.DirectInspection;
import dev.noneops.cli.ExitCode;
import dev.noneops.cli.NoneopsCli;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.systemd.DbusSystemd;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The composition root of the {@code noneops} CLI: configures logging, lets the running agent's
 * daemon answer {@code status} and {@code allocation-launch-check} when it can ({@link
 * DaemonAnswers}), else wires the real host (kernel and D-Bus adapters) into the commands (a
 * plain {@code status} or {@code allocation-launch-check} without building the command line:
 * {@link DirectInspection}), runs them, and exits with their code. The only
 * {@code System.exit} of the CLI is here.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    Logging.configure(List.of(args));
    if (List.of(args).equals(List.of(CdsTrainingCommand.NAME))) {
      System.exit(cdsTraining(args));
    }
    OptionalInt answered = DaemonAnswers.answer(
        List.of(args),
        BuildVersionProvider.buildIdentity(),
        HostPaths.realHost().agentSocket(),
        System.out,
        why -> LoggerFactory.getLogger(Main.class).debug(why));
    if (answered.isPresent()) {
      System.exit(answered.getAsInt());
    }
    CliEnvironment host = realHost();
    OptionalInt inspected = DirectInspection.run(List.of(args), host, System.out, System.err);
    if (inspected.isPresent()) {
      System.exit(inspected.getAsInt());
    }
    System.exit(utf8(NoneopsCli.commandLine(host, args)).execute(args));
  }

  /** Results and errors in UTF-8 whatever the locale: task paths ({@code start › wait-kubelet}) and versions ({@code a → b}). */
  private static CommandLine utf8(CommandLine cli) {
    cli.setOut(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true));
    cli.setErr(new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
    return cli;
  }

  /**
   * The training run of the CDS archive, its systemd adapter on a private bus (see {@link
   * TrainingBus}); on the system bus when that bus cannot be started, so the archive is still made.
   */
  private static int cdsTraining(String[] args) {
    TrainingBus bus;
    try {
      bus = TrainingBus.start();
    } catch (IOException e) {
      System.err.println("noneops " + CdsTrainingCommand.NAME + ": " + e.getMessage()
          + "; training on the system bus");
      return NoneopsCli.commandLine(realHost(), args).execute(args);
    }
    int code = ExitCode.FAILURE.code();
    try (bus) {
      CliEnvironment training = new CliEnvironment(
          new RealHostConnector(() -> DbusSystemd.connect(bus.address())),
          Privileges::isRoot,
          BuildVersionProvider.buildVersion());
      code = NoneopsCli.commandLine(training, args).execute(args);
    } catch (IOException e) {
      System.err.println("noneops " + CdsTrainingCommand.NAME
          + ": cannot stop the training D-Bus daemon: " + e.getMessage());
    }
    return code;
  }

  /** The environment of the real host: this machine's kernel and system bus. */
  public static CliEnvironment realHost() {
    String build = BuildVersionProvider.buildVersion();
    return new CliEnvironment(
        new RealHostConnector(),
        Privileges::isRoot,
        build,
        new RunningJarAgent(build),
        new StderrTerminal(),
        new StdinConfirmation(),
        RealFleetOutputs.ofThisHost());
  }
}
