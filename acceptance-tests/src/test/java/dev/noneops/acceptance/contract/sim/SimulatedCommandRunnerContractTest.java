package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.commands.CommandOutcome;
import dev.noneops.testkit.contract.CommandRunnerContract;
import java.time.Duration;
import java.util.List;

class SimulatedCommandRunnerContractTest extends CommandRunnerContract {
  private final SimulatedHost host = SimulatedHost.create();

  SimulatedCommandRunnerContractTest() {
    host.commands().register(List.of("printf"), c -> CommandOutcome.ok(c.argv().get(2)));
    host.commands()
        .register(
            List.of("fail"),
            c -> CommandOutcome.failed(
                Integer.parseInt(c.argv().get(1)), c.argv().get(2)));
    host.commands()
        .register(
            List.of("sleep"),
            c -> CommandOutcome.ok()
                .after(Duration.ofSeconds(Long.parseLong(c.argv().get(1)))));
  }

  @Override
  protected CommandRunner runner() {
    return host.ports().commands();
  }

  @Override
  protected List<String> printing(String text) {
    return List.of("/usr/bin/printf", "%s", text);
  }

  @Override
  protected List<String> failing(int code, String text) {
    return List.of("fail", Integer.toString(code), text);
  }

  @Override
  protected List<String> runningFor(Duration duration) {
    return List.of("sleep", Long.toString(duration.toSeconds()));
  }
}
