package dev.noneops.demo;

import dev.noneops.cli.BuildVersionProvider;
import dev.noneops.cli.ExitCode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
      "leaves the host as it was. Run it as 'bin/noneops demo' from the repository."
    })
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--simulated", description = "Use the simulated host even when running as root.")
  boolean simulated;

  @Spec
  CommandSpec spec;

  private final DemoRunner runner;
  private final BooleanSupplier root;

  DemoCommand(DemoRunner runner, BooleanSupplier root) {
    this.runner = runner;
    this.root = root;
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ExitCode code = runner.run(out, err, new DemoRunner.Options(simulated, root.getAsBoolean()));
    return code.code();
  }
}
