package dev.noneops.demo;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.node.BootLog;
import dev.noneops.testkit.gate.FaultRule;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The agent as in-process CLI runs on the simulated host; a power cut is the host's simulated one
 * ({@code crash()}: what was not durable is lost, every process dies) and the boot after it is the
 * simulated systemd's, which starts the enabled units in their order, the recovery gate (the CLI's
 * own {@code recover --at-boot}) first.
 */
final class SimulatedAgent implements Agent {
  private final SimCli cli;

  SimulatedAgent(SimCli cli) {
    this.cli = cli;
  }

  @Override
  public Run run(String... args) {
    SimCli.Run r = cli.run(args);
    return new Run(r.exitCode(), r.out(), r.err());
  }

  @Override
  public Run runAndCutPowerAfterTheFlip(String targetVersion, String... args) {
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
                "the power went right after the flip of current to " + targetVersion,
                call.sequence())));
    try {
      SimCli.Run r = cli.run(args);
      throw new IllegalStateException("the upgrade ended (exit " + r.exitCode()
          + ") before it flipped current to " + targetVersion + ": " + r.err().strip());
    } catch (SimulatedCrash crash) {
      cli.host().faults().clear();
      cli.host().crash();
      return new Run(
          137,
          "",
          crash.getMessage() + " (simulated power cut: the host lost"
              + " what was not durable and every process)");
    }
  }

  @Override
  public Reboot reboot() {
    int gateRunsBefore = cli.gateRuns().size();
    BootLog boot = cli.boot();
    Optional<Integer> gateEnded = boot.startEnded(HostPaths.RECOVERY_GATE_UNIT);
    Optional<Integer> firstStack = boot.firstEventOf(HostPaths.STACK_UNITS);
    boolean gateFirst = gateEnded.isPresent()
        && firstStack.isPresent()
        && gateEnded.get() < firstStack.get()
        && cli.gateRuns().size() == gateRunsBefore + 1;
    List<String> units = new ArrayList<>();
    units.add(HostPaths.RECOVERY_GATE_UNIT);
    units.addAll(HostPaths.STACK_UNITS);
    String gateLine = cli.gateRuns().stream()
        .skip(gateRunsBefore)
        .flatMap(r -> (r.err() + "\n" + r.out()).lines())
        .filter(l -> l.contains("noneops recovery gate:"))
        .map(l -> l.substring(l.indexOf("noneops recovery gate:")))
        .reduce((first, second) -> second)
        .orElse("");
    boolean daemonUp = cli.host().systemd().activeUnits().contains(HostPaths.AGENT_UNIT);
    return new Reboot(
        gateFirst,
        "the simulated systemd's boot: " + String.join(", ", boot.of(units)),
        gateLine,
        HostPaths.AGENT_UNIT + (daemonUp ? " active" : " NOT active")
            + " (on the simulated host its unit is up but runs no daemon loop)");
  }

  @Override
  public String activeVersion() {
    return cli.activeVersion().orElse("(none)");
  }
}
