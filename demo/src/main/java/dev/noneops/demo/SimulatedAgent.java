package dev.noneops.demo;

import dev.noneops.testkit.cli.CliOnSimulatedHost;
import dev.noneops.testkit.gate.FaultRule;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.util.concurrent.atomic.AtomicBoolean;

/** The agent as in-process CLI runs on the simulated host; "killing" it is a simulated power cut. */
final class SimulatedAgent implements Agent {
  private final CliOnSimulatedHost cli;

  SimulatedAgent(CliOnSimulatedHost cli) {
    this.cli = cli;
  }

  @Override
  public Run run(String... args) {
    CliOnSimulatedHost.Run r = cli.run(args);
    return new Run(r.exitCode(), r.out(), r.err());
  }

  @Override
  public Run runAndKillAfterTheFlip(String targetVersion, String... args) {
    String current = cli.layout().current().toString();
    AtomicBoolean flipped = new AtomicBoolean();
    cli.host()
        .faults()
        .add(FaultRule.when(call -> {
              if (flipped.get() && call.mutating()) {
                return true;
              }
              if (call.method().equals("symlinkDurably")
                  && call.args().get(0).equals(current)
                  && call.args().get(1).contains(targetVersion)) {
                flipped.set(true);
              }
              return false;
            })
            .failWith(call -> new SimulatedCrash(
                "the agent died right after flipping current to " + targetVersion,
                call.sequence())));
    try {
      CliOnSimulatedHost.Run r = cli.run(args);
      throw new IllegalStateException("the upgrade ended (exit " + r.exitCode()
          + ") before it flipped current to " + targetVersion + ": " + r.err().strip());
    } catch (SimulatedCrash crash) {
      cli.host().faults().clear();
      cli.host().crash();
      return new Run(137, "", crash.getMessage());
    }
  }

  @Override
  public String activeVersion() {
    return cli.activeVersion().orElse("(none)");
  }
}
