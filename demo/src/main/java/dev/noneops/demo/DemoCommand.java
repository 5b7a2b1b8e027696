package dev.noneops.demo;

import dev.noneops.cli.BuildVersionProvider;
import dev.noneops.cli.CliException;
import dev.noneops.cli.Confirmation;
import dev.noneops.cli.ExitCode;
import dev.noneops.cli.YesOption;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code noneops demo}: the whole node lifecycle on an embedded default — bootstrap, status, real
 * pods, an upgrade, an upgrade that rolls back, a power cut in the middle of an upgrade and the
 * boot after it, where the recovery gate heals the node by itself, a prune and a teardown that
 * leaves nothing. As root it runs on a sandboxed real systemd on a disk with artifacts served
 * locally; otherwise (or with {@code --simulated}) on the simulated host, without the pods, and
 * says so.
 */
@Command(
    name = "noneops demo",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    usageHelpAutoWidth = true,
    description = {
      "Tell the node's whole lifecycle on this machine with no real node: as root on a sandboxed",
      "real systemd on a disk with locally served artifacts (real containerd, runc and CNI plugins",
      "from Debian's packages), real pods and a power cut mid-upgrade healed at the next boot, else",
      "on the simulated host. Prints each step, its outcome and duration, and a summary table;",
      "leaves the host as it was. Run it as 'bin/noneops demo' from the repository.",
      "",
      "With --shell, no story: a node to try noneops on by hand. As root it boots the sandboxed",
      "systemd with the artifacts served and a configuration written, prints the command lines",
      "that run noneops (or a shell) inside it, and waits until its input ends (Ctrl-D) or it is",
      "interrupted (Ctrl-C); then it stops the sandbox and removes its disk.",
      "",
      "Before it boots a sandbox it asks on the terminal; --yes boots it without asking (needed",
      "when stdin is not a terminal). When the pipe its output goes to is closed, it stops, cleans",
      "up and exits."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  bin/noneops demo                                 the whole lifecycle, told",
      "  sudo bin/noneops demo --shell --download-rate 2M  a node to try by hand, downloads slowed",
      "  sudo bin/noneops demo --yes | head -40            the story's start, without asking"
    })
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--simulated", description = "Use the simulated host even when running as root.")
  boolean simulated;

  @Option(
      names = "--shell",
      description = "Boot the sandboxed node and wait, printing how to run noneops in it.")
  boolean shell;

  @Option(
      names = "--download-rate",
      paramLabel = "RATE",
      converter = DownloadRate.class,
      description =
          "With --shell: how fast the artifact server sends each download, bytes per second (512K,"
              + " 2M) or unlimited (the default), so that progress can be watched.")
  Long downloadRate;

  @Mixin
  YesOption yes;

  @Spec
  CommandSpec spec;

  private final DemoRunner runner;
  private final SandboxShell sandboxShell;
  private final BooleanSupplier root;
  private final Confirmation confirmation;
  private final Optional<Path> coreLog;

  /** A demo whose stdin is no terminal: it boots a sandbox only with {@code --yes}. */
  DemoCommand(DemoRunner runner, SandboxShell sandboxShell, BooleanSupplier root) {
    this(runner, sandboxShell, root, Confirmation.NONE);
  }

  DemoCommand(
      DemoRunner runner,
      SandboxShell sandboxShell,
      BooleanSupplier root,
      Confirmation confirmation) {
    this(runner, sandboxShell, root, confirmation, Optional.empty());
  }

  /** As above, naming at the end of the story the file core's log went to ({@code coreLog}). */
  DemoCommand(
      DemoRunner runner,
      SandboxShell sandboxShell,
      BooleanSupplier root,
      Confirmation confirmation,
      Optional<Path> coreLog) {
    this.runner = runner;
    this.sandboxShell = sandboxShell;
    this.root = root;
    this.confirmation = confirmation;
    this.coreLog = coreLog;
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!shell && downloadRate != null) {
      throw new ParameterException(spec.commandLine(), "--download-rate needs --shell");
    }
    if (shell) {
      if (simulated) {
        throw new ParameterException(
            spec.commandLine(), "--shell runs on a sandboxed systemd only, not with --simulated");
      }
      if (root.getAsBoolean()) {
        confirmSandbox(err);
      }
      long rate = downloadRate == null ? DownloadRate.UNLIMITED : downloadRate;
      return sandboxShell
          .open(out, System.in, new SandboxShell.Options(root.getAsBoolean(), rate))
          .code();
    }
    DemoRunner.Options options = new DemoRunner.Options(simulated, root.getAsBoolean());
    if (runner.bootsASandbox(options)) {
      confirmSandbox(err);
    }
    ExitCode code = runner.run(out, err, options);
    coreLog.ifPresent(log -> {
      out.println("core's log: " + log);
      out.flush();
    });
    return code.code();
  }

  /**
   * Goes on with {@code --yes} or when the operator says yes on stdin's terminal; else refuses
   * (exit 2 on a stdin that is no terminal, 1 on a no) before anything is booted.
   */
  private void confirmSandbox(PrintWriter err) {
    if (yes.given()) {
      return;
    }
    boolean answer = confirmation
        .ask(
            err,
            "Boot a sandboxed systemd on this machine (its own namespaces, a disk under /var/tmp,"
                + " artifacts served on 127.0.0.1), stopped and removed at the end?")
        .orElseThrow(() -> new CliException(
            ExitCode.USAGE,
            "the demo boots a sandboxed systemd and stdin is not a terminal to ask on; pass --yes"
                + " to boot it without asking (nothing was started)"));
    if (!answer) {
      throw new CliException(ExitCode.FAILURE, "not confirmed; nothing was started");
    }
  }
}
