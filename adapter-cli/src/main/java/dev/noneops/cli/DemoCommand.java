package dev.noneops.cli;

import java.util.ServiceLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code noneops demo}: the whole node lifecycle on an embedded default — bootstrap, status, an
 * upgrade, an upgrade that rolls back, a crash in the middle of an upgrade and its recovery, a
 * prune and a teardown. As root it runs on a sandboxed real systemd with artifacts served
 * locally; otherwise (or with {@code --simulated}) on the simulated host, and says so.
 */
@Command(name = "demo", description = {
    "Tell the node's whole lifecycle on this machine with no real node: as root on a sandboxed",
    "real systemd with locally served artifacts (real containerd from Debian's package), else on",
    "the simulated host. Prints each step, its outcome and duration, and a summary table; leaves",
    "the host as it was. Run it as 'bin/noneops demo' from the repository."})
public final class DemoCommand extends CliCommand {
  @Option(names = "--simulated", description = "Use the simulated host even when running as root.")
  boolean simulated;

  @Override
  protected ExitCode execute() throws Exception {
    DemoRunner runner = ServiceLoader.load(DemoRunner.class).findFirst().orElseThrow(() -> new CliException(ExitCode.FAILURE,
        "the demo lives in the testkit, which this jar does not contain: run 'bin/noneops demo' from the repository"));
    return runner.run(out(), err(), new DemoRunner.Options(simulated, environment().privileged().getAsBoolean()));
  }
}
